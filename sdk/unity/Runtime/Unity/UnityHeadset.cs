#if UNITY_5_3_OR_NEWER
using System;
using System.IO;
using UnityEngine;

namespace Vrtc.Headset
{
    /// <summary>
    /// The Unity side of the SDK: options filled from the player (persistentDataPath, battery,
    /// Application.version, Debug.Log). Call it on the main thread and create the client there:
    /// the client reads the battery on that thread (SystemInfo may not be read elsewhere) and
    /// raises its events there, so handlers may touch the scene.
    /// </summary>
    public static class UnityHeadset
    {
        /// <summary>Options for this player: state in persistentDataPath/vrtc, the device's name and battery.</summary>
        public static HeadsetOptions Options(string serverUrl, string deviceType, string deviceName = null)
        {
            return Options(serverUrl, deviceType, deviceName, "vrtc");
        }

        /// <summary>Options from a <see cref="HeadsetConfig"/> asset.</summary>
        public static HeadsetOptions Options(HeadsetConfig config)
        {
            if (config == null) throw new ArgumentNullException("config", "Assign a HeadsetConfig (Assets → Create → VR Training Console → Headset config)");
            return Options(config.serverUrl, config.deviceType, config.deviceName, config.dataFolder);
        }

        static HeadsetOptions Options(string serverUrl, string deviceType, string deviceName, string dataFolder)
        {
            return new HeadsetOptions
            {
                ServerUrl = serverUrl,
                DataPath = Path.Combine(Application.persistentDataPath, string.IsNullOrEmpty(dataFolder) ? "vrtc" : dataFolder),
                DeviceName = string.IsNullOrEmpty(deviceName) ? SystemInfo.deviceName : deviceName,
                DeviceType = deviceType,
                AppVersion = Application.version,
                // Read by the client on the main thread only (HeadsetOptions.BatteryPercent).
                BatteryPercent = ReadBattery,
                // Debug.Log may be called from any thread.
                Log = line => Debug.LogWarning("[Vrtc.Headset] " + line),
            };
        }

        /// <summary>SystemInfo.batteryLevel is 0..1, or -1 where unknown (the Editor, a desktop). Main thread only.</summary>
        static int? ReadBattery()
        {
            var level = SystemInfo.batteryLevel;
            if (level < 0) return null;
            return Mathf.Clamp(Mathf.RoundToInt(level * 100), 0, 100);
        }
    }
}
#endif
