#if UNITY_5_3_OR_NEWER
using UnityEngine;

namespace Vrtc.Headset
{
    /// <summary>
    /// Where the headsets of a build connect, as an asset (Assets → Create → VR Training Console →
    /// Headset config): one per environment (development, production), picked in the inspector of
    /// <see cref="HeadsetBehaviour"/>, so no address is compiled into a script.
    /// </summary>
    [CreateAssetMenu(menuName = "VR Training Console/Headset config", fileName = "HeadsetConfig")]
    public sealed class HeadsetConfig : ScriptableObject
    {
        [Tooltip("Base URL of the console's server, e.g. https://vr.example.org (HTTPS in production).")]
        public string serverUrl = "https://vr.example.org";

        [Tooltip("quest, pico, oculus or other: the console shows it.")]
        public string deviceType = "quest";

        [Tooltip("The name the console shows. Empty: SystemInfo.deviceName.")]
        public string deviceName = "";

        [Tooltip("Folder under Application.persistentDataPath for the token, the outbox and the session.")]
        public string dataFolder = "vrtc";

        [Tooltip("How long OnApplicationPause gives the outbox to leave before the headset sleeps (seconds).")]
        public float flushOnPauseSeconds = 2f;
    }
}
#endif
