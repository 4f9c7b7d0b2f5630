#if UNITY_5_3_OR_NEWER
using System;
using System.Threading.Tasks;
using UnityEngine;
using UnityEngine.Events;

namespace Vrtc.Headset
{
    [Serializable] public sealed class SessionAssignedEvent : UnityEvent<SessionInfo> { }
    [Serializable] public sealed class SessionEndedEvent : UnityEvent<SessionEndInfo> { }
    [Serializable] public sealed class ConnectionChangedEvent : UnityEvent<bool> { }
    [Serializable] public sealed class EnrollmentEvent : UnityEvent<EnrollmentResult> { }

    /// <summary>
    /// Owns the app's one HeadsetClient: created on the main thread from a <see cref="HeadsetConfig"/>
    /// (so events, and the battery reading, happen there), started when enrolled, flushed briefly
    /// when the app is paused (the headset taken off), stopped on quit. The SDK's events are also
    /// UnityEvents to wire in the inspector.
    ///
    /// One per app: the first one lives across scene loads (DontDestroyOnLoad); a copy in a scene
    /// loaded later destroys itself, so a scene reload never starts a second client on the same
    /// DataPath. Reach it through <see cref="Instance"/>.
    /// </summary>
    [DisallowMultipleComponent]
    public sealed class HeadsetBehaviour : MonoBehaviour
    {
        [Tooltip("Where to connect (Assets → Create → VR Training Console → Headset config).")]
        public HeadsetConfig config;

        public SessionAssignedEvent sessionAssigned = new SessionAssignedEvent();
        public SessionEndedEvent sessionEnded = new SessionEndedEvent();
        public ConnectionChangedEvent connectionChanged = new ConnectionChangedEvent();
        public UnityEvent unenrolled = new UnityEvent();
        [Tooltip("Raised with the result of Enroll(code): show result.Outcome on the enrolment screen.")]
        public EnrollmentEvent enrollmentFinished = new EnrollmentEvent();

        /// <summary>The app's headset behaviour, or null before the first one woke.</summary>
        public static HeadsetBehaviour Instance { get; private set; }

        public HeadsetClient Client { get; private set; }

        void Awake()
        {
            if (Instance != null && Instance != this)
            {
                // A second copy (a scene loaded again): the first one keeps the client.
                Destroy(gameObject);
                return;
            }
            Instance = this;
            DontDestroyOnLoad(gameObject);
            Client = new HeadsetClient(UnityHeadset.Options(config));
            Client.SessionAssigned += session => sessionAssigned.Invoke(session);
            Client.SessionEnded += end => sessionEnded.Invoke(end);
            Client.ConnectionChanged += online => connectionChanged.Invoke(online);
            Client.Unenrolled += () => unenrolled.Invoke();
        }

        void Start()
        {
            // After every Awake: handlers added in other components' Awake hear a resumed session.
            if (Instance == this && Client.IsEnrolled) Client.Start();
        }

        /// <summary>
        /// Enrols with the code the console shows and starts the heartbeats; the result (also raised
        /// as <see cref="enrollmentFinished"/>, on the main thread) says what to show:
        /// Enrolled, WrongCode, ExpiredCode, TooManyAttempts, QuotaExceeded, NetworkError, Failed.
        /// </summary>
        public async Task<EnrollmentResult> Enroll(string code)
        {
            // Awaited on the main thread: the continuation runs there (Unity's context).
            var result = await Client.TryEnrollAsync(code);
            if (result.Succeeded) Client.Start();
            enrollmentFinished.Invoke(result);
            return result;
        }

        /// <summary>
        /// <see cref="Enroll"/> for the inspector (a UnityEvent calls void methods only, e.g. an input
        /// field's On End Edit): the result arrives as <see cref="enrollmentFinished"/>.
        /// </summary>
        public void BeginEnroll(string code)
        {
            _ = Enroll(code);
        }

        void OnApplicationPause(bool paused)
        {
            // Reports are queued already; this gives them a chance to leave before sleep.
            if (paused && Client != null) _ = Client.FlushAsync(TimeSpan.FromSeconds(config != null ? config.flushOnPauseSeconds : 2f));
        }

        void OnDestroy()
        {
            if (Instance != this || Client == null) return;
            Instance = null;
            _ = Client.StopAsync(); // the loops end by themselves; Dispose waits for the writes
            Client.Dispose(); // waits for the reports already queued to be on disk
            Client = null;
        }
    }
}
#endif
