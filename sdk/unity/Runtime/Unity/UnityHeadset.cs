#if UNITY_5_3_OR_NEWER
using System;
using System.IO;
using UnityEngine;

namespace Vrtc.Headset
{
    /// <summary>
    /// The Unity side of the SDK: options filled from the player (persistentDataPath, battery,
    /// Application.version, Debug.Log). The core raises its events on the SynchronizationContext
    /// that created the client; create it from a MonoBehaviour (the main thread) and the handlers
    /// may touch the scene.
    /// </summary>
    public static class UnityHeadset
    {
        /// <summary>Options for this player: state in persistentDataPath/vrtc, the device's name and battery.</summary>
        public static HeadsetOptions Options(string serverUrl, string deviceType, string deviceName = null)
        {
            return new HeadsetOptions
            {
                ServerUrl = serverUrl,
                DataPath = Path.Combine(Application.persistentDataPath, "vrtc"),
                DeviceName = string.IsNullOrEmpty(deviceName) ? SystemInfo.deviceName : deviceName,
                DeviceType = deviceType,
                AppVersion = Application.version,
                BatteryPercent = ReadBattery,
                Log = line => Debug.LogWarning("[Vrtc.Headset] " + line),
            };
        }

        /// <summary>SystemInfo.batteryLevel is 0..1, or -1 where unknown (the Editor, a desktop).</summary>
        static int? ReadBattery()
        {
            var level = SystemInfo.batteryLevel;
            if (level < 0) return null;
            return Mathf.Clamp(Mathf.RoundToInt(level * 100), 0, 100);
        }
    }
}
#endif
