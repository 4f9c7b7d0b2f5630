using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using System.Threading.Tasks;

namespace Vrtc.Headset
{
    /// <summary>
    /// One headset speaking the headset protocol (docs/headset-protocol.md): enrolment, the heartbeat
    /// loop, the session the console started, and results that survive a bad network.
    ///
    /// Reports (<see cref="ReportProgressAsync(int)"/>, <see cref="FinishAsync(bool, int)"/>) take
    /// their place in the outbox in memory and return at once; a background thread writes them to
    /// <see cref="HeadsetOptions.DataPath"/> in that order, and their task completes once on disk.
    /// A background loop delivers them in order, each with its own Idempotency-Key, retried with
    /// backoff and jitter (honouring Retry-After) until the server answers. A new client on the same
    /// folder delivers what an earlier process left behind, and resumes the session it was playing.
    ///
    /// Threads: events are raised through the SynchronizationContext that created the client
    /// (Unity's main thread when created there), or on a pool thread when there is none. The
    /// options' <see cref="HeadsetOptions.BatteryPercent"/> is read on that context too. No call of
    /// this class does disk I/O or network I/O on the caller's thread, except the constructor
    /// (which reads the folder once) and <see cref="Dispose"/> (which waits for queued writes).
    /// </summary>
    public sealed partial class HeadsetClient : IDisposable
    {
        public const string EnrollPath = "/v1/headset/enroll";
        public const string HeartbeatPath = "/v1/headset/heartbeat";

        readonly HeadsetOptions options;
        readonly Action<string> log;
        readonly string baseUrl;
        readonly Transport transport;
        readonly IClock clock;
        readonly SynchronizationContext context;
        readonly Outbox outbox;
        readonly DiskWriter writer;
        readonly object gate = new object();
        /// <summary>Held while the heartbeat's or the push channel's answer is followed: their events keep their order.</summary>
        readonly object follow = new object();
        readonly Random random = new Random();
        /// <summary>Fired on a new report and on every heartbeat answered: the delivery loop looks again.</summary>
        readonly Pulse wake = new Pulse();
        /// <summary>Fired whenever a report leaves the outbox: FlushAsync looks again.</summary>
        readonly Pulse delivered = new Pulse();
        /// <summary>Sessions this app finished: a heartbeat still listing one (its finish not yet delivered) is not a new session.</summary>
        readonly HashSet<string> finished = new HashSet<string>();

        DeviceState state;
        SessionInfo current;
        /// <summary>What is on disk of the current session (session.json); null with no session.</summary>
        SessionRecord record;
        /// <summary>A session resumed from disk, announced (SessionAssigned) by Start.</summary>
        SessionInfo resumed;
        bool? connected;
        int? battery;
        TimeSpan heartbeatInterval;
        CancellationTokenSource lifetime;
        Task heartbeatLoop;
        Task pushLoop;
        Task deliveryLoop;
        bool started;
        bool disposed;

        public event Action<SessionInfo> SessionAssigned;
        public event Action<SessionEndInfo> SessionEnded;
        public event Action<bool> ConnectionChanged;
        public event Action Unenrolled;

        public HeadsetClient(HeadsetOptions options)
        {
            if (options == null) throw new ArgumentNullException("options");
            this.options = options.Validated();
            log = options.Log ?? (line => Console.Error.WriteLine("[Vrtc.Headset] " + line));
            baseUrl = options.ServerUrl.TrimEnd('/');
            clock = options.Clock ?? SystemClock.Instance;
            transport = new Transport(options, baseUrl);
            context = SynchronizationContext.Current;
            heartbeatInterval = options.DefaultHeartbeatInterval;
            Directory.CreateDirectory(options.DataPath);
            state = DeviceState.Load(options.DataPath, log);
            outbox = new Outbox(options.DataPath, log);
            writer = new DiskWriter(log);
            foreach (var sessionId in outbox.FinishedSessions()) finished.Add(sessionId);
            if (state != null) Resume(SessionRecord.Load(options.DataPath, log));
        }

        /// <summary>True once enrolled (now or by an earlier process on the same DataPath).</summary>
        public bool IsEnrolled { get { lock (gate) return state != null; } }

        /// <summary>The id the server gave this headset, or null before enrolment.</summary>
        public string DeviceId { get { lock (gate) return state == null ? null : state.DeviceId; } }

        /// <summary>
        /// The session to play, from SessionAssigned until SessionEnded; null otherwise. After a
        /// restart it is the session the app was playing, at once, online or not.
        /// </summary>
        public SessionInfo CurrentSession { get { lock (gate) return current; } }

        /// <summary>Whether the last exchange with the server succeeded.</summary>
        public bool IsConnected { get { lock (gate) return connected == true; } }

        /// <summary>Reports made and not yet accepted by the server (written to disk or about to be).</summary>
        public int PendingReports { get { return outbox.Count; } }

        /// <summary>The interval the server asked for (the default until the first heartbeat answers).</summary>
        public TimeSpan HeartbeatInterval { get { lock (gate) return heartbeatInterval; } }

        // ---------------------------------------------------------------- enrolment

        /// <summary>
        /// Enrols with the code the console shows (Headsets → Add headset) and keeps the token in
        /// DataPath. Throws <see cref="HeadsetException"/> with ErrorCode "enrollment_code_invalid"
        /// for a wrong or expired code, "rate_limited" after too many tries, "network_error" when
        /// the server cannot be reached. <see cref="TryEnrollAsync"/> answers the same without throwing.
        /// </summary>
        public Task EnrollAsync(string code)
        {
            if (string.IsNullOrEmpty(code)) throw new ArgumentException("code is required");
            // Off the caller's thread and context: nothing here may wait for Unity's main thread.
            return Task.Run(() => EnrollCoreAsync(code.Trim()));
        }

        /// <summary>
        /// Enrols as <see cref="EnrollAsync"/> does and says how it went, for an enrolment screen
        /// to show: <see cref="EnrollmentOutcome.Enrolled"/>, WrongCode, ExpiredCode,
        /// TooManyAttempts, QuotaExceeded, NetworkError or Failed. Does not start the client.
        /// </summary>
        public async Task<EnrollmentResult> TryEnrollAsync(string code)
        {
            if (string.IsNullOrWhiteSpace(code))
                return new EnrollmentResult { Outcome = EnrollmentOutcome.WrongCode, ErrorCode = "enrollment_code_invalid", Message = "No code given" };
            try
            {
                await EnrollAsync(code).ConfigureAwait(false);
                return new EnrollmentResult { Outcome = EnrollmentOutcome.Enrolled, DeviceId = DeviceId };
            }
            catch (HeadsetException error) { return EnrollmentResult.From(error); }
        }

        async Task EnrollCoreAsync(string code)
        {
            var answer = await transport.SendAsync(EnrollPath, new Dictionary<string, object>
            {
                { "code", code },
                { "name", options.DeviceName },
                { "type", options.DeviceType },
            }, null, null, CancellationToken.None).ConfigureAwait(false);
            if (answer.Status != 201 && answer.Status != 200) throw answer.ToException();
            var deviceId = JsonFields.String(answer.Body, "device_id");
            var token = JsonFields.String(answer.Body, "device_token");
            if (deviceId == null || token == null) throw new HeadsetException(answer.Status, "bad_response", "The enrolment answer has no device token");
            var enrolled = new DeviceState { DeviceId = deviceId, DeviceToken = token, ServerUrl = baseUrl };
            var json = enrolled.ToJson();
            await writer.Post(() => DeviceState.Write(options.DataPath, json)).ConfigureAwait(false);
            lock (gate) state = enrolled;
            wake.Fire();
        }

        // ---------------------------------------------------------------- the loops

        /// <summary>
        /// Starts the heartbeat loop (at the server's interval), the push channel (a session started
        /// or cancelled arrives within a second; <see cref="HeadsetOptions.PushWait"/>) and the
        /// delivery of the outbox.
        /// Needs an enrolled headset. A session resumed from disk is announced now (SessionAssigned).
        /// </summary>
        public void Start()
        {
            if (!IsEnrolled) throw new InvalidOperationException("Enrol first (EnrollAsync) or check IsEnrolled");
            SessionInfo announce;
            lock (gate)
            {
                if (disposed) throw new ObjectDisposedException("HeadsetClient");
                if (started) return;
                started = true;
                var cancel = EnsureLifetime();
                heartbeatLoop = Task.Run(() => HeartbeatLoopAsync(cancel));
                if (options.PushWait > TimeSpan.Zero) pushLoop = Task.Run(() => PushLoopAsync(cancel));
                EnsureDeliveryLocked();
                announce = resumed != null && resumed == current ? resumed : null;
                resumed = null;
            }
            SampleReadings();
            if (announce != null) Raise(() => SessionAssigned?.Invoke(announce));
        }

        /// <summary>Stops the heartbeats and the delivery; what is in the outbox stays there for later.</summary>
        public async Task StopAsync()
        {
            Task[] loops;
            lock (gate)
            {
                started = false;
                if (lifetime == null) return;
                lifetime.Cancel();
                lifetime = null;
                loops = new[] { heartbeatLoop ?? Task.FromResult(true), pushLoop ?? Task.FromResult(true), deliveryLoop ?? Task.FromResult(true) };
                heartbeatLoop = null;
                pushLoop = null;
                deliveryLoop = null;
            }
            try { await Task.WhenAll(loops).ConfigureAwait(false); }
            catch (OperationCanceledException) { }
        }

        CancellationToken EnsureLifetime()
        {
            if (lifetime == null) lifetime = new CancellationTokenSource();
            return lifetime.Token;
        }

        void EnsureDeliveryLocked()
        {
            if (deliveryLoop != null && !deliveryLoop.IsCompleted) return;
            var cancel = EnsureLifetime();
            deliveryLoop = Task.Run(() => DeliveryLoopAsync(cancel));
        }

        /// <summary>
        /// Reads the battery where the app said it may be read: at once on the client's own context
        /// (or with none), else posted to it; the heartbeat sends the latest value read.
        /// </summary>
        void SampleReadings()
        {
            if (options.BatteryPercent == null) return;
            if (context == null || SynchronizationContext.Current == context) ReadBattery();
            else context.Post(_ => ReadBattery(), null);
        }

        void ReadBattery()
        {
            try
            {
                var value = options.BatteryPercent();
                lock (gate) battery = value.HasValue ? Math.Max(0, Math.Min(100, value.Value)) : (int?)null;
            }
            catch (Exception error) { log("BatteryPercent failed: " + error.Message); }
        }

        // ---------------------------------------------------------------- events

        void SetConnected(bool now)
        {
            lock (gate)
            {
                if (connected == now) return;
                connected = now;
            }
            Raise(() => ConnectionChanged?.Invoke(now));
        }

        /// <summary>Raises an event on the client's context (Unity's main thread), or here when it has none.</summary>
        void Raise(Action raise)
        {
            Action guarded = () =>
            {
                try { raise(); }
                catch (Exception error) { log("an event handler threw: " + error); }
            };
            if (context != null) context.Post(_ => guarded(), null);
            else guarded();
        }

        /// <summary>
        /// Stops the loops, waits (at most 5 s) until every report already made is on disk, and
        /// releases the HTTP client. Call it when the app quits; nothing queued is lost by it.
        /// </summary>
        public void Dispose()
        {
            lock (gate)
            {
                if (disposed) return;
                disposed = true;
                started = false;
                if (lifetime != null) lifetime.Cancel();
                lifetime = null;
            }
            writer.Dispose();
            transport.Dispose();
        }
    }
}
