using System;
using System.Net.Http;

namespace Vrtc.Headset
{
    /// <summary>How a <see cref="HeadsetClient"/> reaches the server and where it keeps its state.</summary>
    public sealed class HeadsetOptions
    {
        /// <summary>Base URL of the server, e.g. <c>https://vr.example.org</c>.</summary>
        public string ServerUrl;

        /// <summary>
        /// A folder the SDK owns: the device token (<c>device.json</c>) and the outbox of reports not
        /// yet delivered (<c>outbox/</c>). It must survive app restarts (Unity:
        /// <c>Application.persistentDataPath</c> + "/vrtc").
        /// </summary>
        public string DataPath;

        /// <summary>The name the console shows for this headset.</summary>
        public string DeviceName;

        /// <summary>One of the contract's device types: "oculus", "pico", "quest", "other".</summary>
        public string DeviceType;

        /// <summary>The app's version, sent with every heartbeat when set.</summary>
        public string AppVersion;

        /// <summary>
        /// Battery level 0..100 (or null when unknown). Called on the thread that created the
        /// client when it has a SynchronizationContext (Unity's main thread, where
        /// <c>SystemInfo.batteryLevel</c> may be read): at <see cref="HeadsetClient.Start"/> and
        /// posted there before each heartbeat, which sends the latest value read. Without a
        /// context it is called on the heartbeat's thread.
        /// </summary>
        public Func<int?> BatteryPercent;

        /// <summary>Where the SDK writes what it did not deliver and why. Default: standard error.</summary>
        public Action<string> Log;

        /// <summary>Time limit of one HTTP request. Default 15 s.</summary>
        public TimeSpan RequestTimeout = TimeSpan.FromSeconds(15);

        /// <summary>First retry delay of a report; doubles per failure up to <see cref="RetryMaxDelay"/>.</summary>
        public TimeSpan RetryBaseDelay = TimeSpan.FromMilliseconds(500);

        /// <summary>Longest wait between two attempts of a report (unless the server's Retry-After says longer).</summary>
        public TimeSpan RetryMaxDelay = TimeSpan.FromSeconds(30);

        /// <summary>Heartbeat interval until the server tells its own. Default 5 s.</summary>
        public TimeSpan DefaultHeartbeatInterval = TimeSpan.FromSeconds(5);

        /// <summary>
        /// How long the server may hold each call of the push channel (GET /v1/headset/events), which
        /// brings a session started or cancelled in the console within a second instead of at the
        /// next heartbeat. Default 25 s (at most 30). <c>TimeSpan.Zero</c> turns the channel off:
        /// the heartbeat alone then tells, as it always does when the channel cannot be reached.
        /// </summary>
        public TimeSpan PushWait = TimeSpan.FromSeconds(25);

        /// <summary>The clock reports are stamped with (occurred_at). Default: the machine's.</summary>
        public IClock Clock;

        /// <summary>The HTTP stack to use (a proxy, pinned certificates). Default: a new HttpClientHandler.</summary>
        public HttpMessageHandler HttpHandler;

        internal HeadsetOptions Validated()
        {
            Uri uri;
            if (string.IsNullOrEmpty(ServerUrl) || !Uri.TryCreate(ServerUrl, UriKind.Absolute, out uri))
                throw new ArgumentException("ServerUrl must be an absolute URL, e.g. https://vr.example.org");
            if (string.IsNullOrEmpty(DataPath)) throw new ArgumentException("DataPath is required");
            if (string.IsNullOrEmpty(DeviceName)) throw new ArgumentException("DeviceName is required");
            if (string.IsNullOrEmpty(DeviceType)) throw new ArgumentException("DeviceType is required");
            if (RequestTimeout <= TimeSpan.Zero) throw new ArgumentException("RequestTimeout must be positive");
            if (RetryBaseDelay <= TimeSpan.Zero || RetryMaxDelay < RetryBaseDelay)
                throw new ArgumentException("RetryBaseDelay must be positive and at most RetryMaxDelay");
            if (PushWait < TimeSpan.Zero || PushWait > TimeSpan.FromSeconds(30))
                throw new ArgumentException("PushWait must be between 0 and 30 s");
            return this;
        }
    }
}
