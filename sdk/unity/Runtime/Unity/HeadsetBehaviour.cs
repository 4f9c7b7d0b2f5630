#if UNITY_5_3_OR_NEWER
using System;
using UnityEngine;

namespace Vrtc.Headset
{
    /// <summary>
    /// Owns a HeadsetClient for the lifetime of a scene object: creates it on the main thread (so
    /// events arrive there), starts it when enrolled, stops it on quit, and flushes the outbox
    /// briefly when the app is paused (the headset taken off). Add it to a persistent object.
    /// </summary>
    public sealed class HeadsetBehaviour : MonoBehaviour
    {
        public string serverUrl = "http://192.168.1.10:8080";
        public string deviceType = "quest";
        [Tooltip("Empty: SystemInfo.deviceName")]
        public string deviceName = "";

        public HeadsetClient Client { get; private set; }

        void Awake()
        {
            DontDestroyOnLoad(gameObject);
            Client = new HeadsetClient(UnityHeadset.Options(serverUrl, deviceType, deviceName));
            if (Client.IsEnrolled) Client.Start();
        }

        /// <summary>Enrols with the code the console shows, then starts the heartbeats.</summary>
        public async void Enroll(string code)
        {
            try
            {
                await Client.EnrollAsync(code);
                Client.Start();
            }
            catch (Exception error)
            {
                Debug.LogError("[Vrtc.Headset] enrolment failed: " + error.Message);
            }
        }

        void OnApplicationPause(bool paused)
        {
            // Reports are on disk already; this only gives them a chance to leave before sleep.
            if (paused && Client != null) Client.FlushAsync(TimeSpan.FromSeconds(2));
        }

        void OnDestroy()
        {
            if (Client == null) return;
            Client.StopAsync();
            Client.Dispose();
        }
    }
}
#endif
