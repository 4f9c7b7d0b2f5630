using System;
using System.Collections.Generic;
using System.IO;
using System.Net;
using System.Net.Http;
using System.Net.Http.Headers;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Vrtc.Headset
{
    /// <summary>
    /// One headset speaking the headset protocol (docs/headset-protocol.md): enrolment, the heartbeat
    /// loop, the session the console started, and results that survive a bad network.
    ///
    /// Reports (<see cref="ReportProgressAsync(int)"/>, <see cref="FinishAsync(bool, int)"/>) are
    /// written to a durable outbox in <see cref="HeadsetOptions.DataPath"/> before their task
    /// completes, then delivered in order by a background loop, each with its own Idempotency-Key,
    /// retried with backoff and jitter (honouring Retry-After) until the server answers. A new client
    /// on the same folder delivers what an earlier process left behind.
    ///
    /// Events are raised on the SynchronizationContext that created the client (Unity's main thread
    /// when created there), or on a pool thread when there is none.
    /// </summary>
    public sealed class HeadsetClient : IDisposable
    {
        public const string EnrollPath = "/v1/headset/enroll";
        public const string HeartbeatPath = "/v1/headset/heartbeat";
        const int MaxCompletedTasks = 10000;

        readonly HeadsetOptions options;
        readonly Action<string> log;
        readonly string baseUrl;
        readonly HttpClient http;
        readonly SynchronizationContext context;
        readonly Outbox outbox;
        readonly object gate = new object();
        readonly Random random = new Random();
        /// <summary>Fired on a new report and on every heartbeat answered: the delivery loop looks again.</summary>
        readonly Pulse wake = new Pulse();
        /// <summary>Fired whenever a report leaves the outbox: FlushAsync looks again.</summary>
        readonly Pulse delivered = new Pulse();
        /// <summary>Sessions this app finished: a heartbeat still listing one (its finish not yet delivered) is not a new session.</summary>
        readonly HashSet<string> finished = new HashSet<string>();

        DeviceState state;
        SessionInfo current;
        bool? connected;
        TimeSpan heartbeatInterval;
        CancellationTokenSource lifetime;
        Task heartbeatLoop;
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
            http = new HttpClient(options.HttpHandler ?? new HttpClientHandler(), options.HttpHandler == null);
            http.Timeout = Timeout.InfiniteTimeSpan; // each request has its own limit (RequestTimeout)
            context = SynchronizationContext.Current;
            heartbeatInterval = options.DefaultHeartbeatInterval;
            Directory.CreateDirectory(options.DataPath);
            state = DeviceState.Load(options.DataPath, log);
            outbox = new Outbox(options.DataPath, log);
            foreach (var sessionId in outbox.FinishedSessions()) finished.Add(sessionId);
        }

        /// <summary>True once enrolled (now or by an earlier process on the same DataPath).</summary>
        public bool IsEnrolled { get { lock (gate) return state != null; } }

        /// <summary>The id the server gave this headset, or null before enrolment.</summary>
        public string DeviceId { get { lock (gate) return state == null ? null : state.DeviceId; } }

        /// <summary>The session to play, from SessionAssigned until SessionEnded; null otherwise.</summary>
        public SessionInfo CurrentSession { get { lock (gate) return current; } }

        /// <summary>Whether the last exchange with the server succeeded.</summary>
        public bool IsConnected { get { lock (gate) return connected == true; } }

        /// <summary>Reports written to the outbox and not yet accepted by the server.</summary>
        public int PendingReports { get { return outbox.Count; } }

        /// <summary>The interval the server asked for (the default until the first heartbeat answers).</summary>
        public TimeSpan HeartbeatInterval { get { lock (gate) return heartbeatInterval; } }

        // ---------------------------------------------------------------- enrolment

        /// <summary>
        /// Enrols with the code the console shows (Headsets → Add headset) and keeps the token in
        /// DataPath. Throws <see cref="HeadsetException"/> with ErrorCode "enrollment_code_invalid"
        /// for a wrong or expired code, "rate_limited" after too many tries, "network_error" when
        /// the server cannot be reached.
        /// </summary>
        public async Task EnrollAsync(string code)
        {
            if (string.IsNullOrEmpty(code)) throw new ArgumentException("code is required");
            var answer = await SendAsync(EnrollPath, new Dictionary<string, object>
            {
                { "code", code.Trim() },
                { "name", options.DeviceName },
                { "type", options.DeviceType },
            }, null, null, CancellationToken.None).ConfigureAwait(false);
            if (answer.Status != 201 && answer.Status != 200) throw answer.ToException();
            var deviceId = JsonFields.String(answer.Body, "device_id");
            var token = JsonFields.String(answer.Body, "device_token");
            if (deviceId == null || token == null) throw new HeadsetException(answer.Status, "bad_response", "The enrolment answer has no device token");
            lock (gate)
            {
                state = new DeviceState { DeviceId = deviceId, DeviceToken = token, ServerUrl = baseUrl };
                state.Save(options.DataPath);
            }
            wake.Fire();
        }

        // ---------------------------------------------------------------- the loops

        /// <summary>
        /// Starts the heartbeat loop (at the server's interval) and the delivery of the outbox.
        /// Needs an enrolled headset.
        /// </summary>
        public void Start()
        {
            if (!IsEnrolled) throw new InvalidOperationException("Enrol first (EnrollAsync) or check IsEnrolled");
            lock (gate)
            {
                if (disposed) throw new ObjectDisposedException("HeadsetClient");
                if (started) return;
                started = true;
                var cancel = EnsureLifetime();
                heartbeatLoop = Task.Run(() => HeartbeatLoopAsync(cancel));
                EnsureDeliveryLocked();
            }
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
                loops = new[] { heartbeatLoop ?? Task.FromResult(true), deliveryLoop ?? Task.FromResult(true) };
                heartbeatLoop = null;
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

        async Task HeartbeatLoopAsync(CancellationToken cancel)
        {
            while (!cancel.IsCancellationRequested)
            {
                TimeSpan wait;
                try { wait = await HeartbeatOnceAsync(cancel).ConfigureAwait(false); }
                catch (Exception) when (cancel.IsCancellationRequested) { return; }
                catch (Exception error)
                {
                    log("heartbeat: " + error);
                    wait = HeartbeatInterval;
                }
                try { await Task.Delay(wait, cancel).ConfigureAwait(false); }
                catch (OperationCanceledException) { return; }
            }
        }

        async Task<TimeSpan> HeartbeatOnceAsync(CancellationToken cancel)
        {
            DeviceState device;
            lock (gate) device = state;
            if (device == null) return HeartbeatInterval;
            var body = new Dictionary<string, object>();
            if (options.BatteryPercent != null)
            {
                int? battery = null;
                try { battery = options.BatteryPercent(); }
                catch (Exception error) { log("BatteryPercent failed: " + error.Message); }
                if (battery.HasValue) body["battery_percent"] = Math.Max(0, Math.Min(100, battery.Value));
            }
            if (!string.IsNullOrEmpty(options.AppVersion)) body["app_version"] = options.AppVersion;
            body["pending_reports"] = outbox.Count;

            var sentAt = DateTime.UtcNow;
            Answer answer;
            try { answer = await SendAsync(HeartbeatPath, body, device.DeviceToken, null, cancel).ConfigureAwait(false); }
            catch (HeadsetException)
            {
                SetConnected(false);
                return HeartbeatInterval;
            }
            var receivedAt = DateTime.UtcNow;
            if (answer.Status == 200 && answer.Body != null)
            {
                var interval = JsonFields.Long(answer.Body, "heartbeat_interval_ms");
                var serverTime = JsonFields.Time(answer.Body, "server_time");
                lock (gate)
                {
                    if (interval.HasValue && interval.Value > 0) heartbeatInterval = TimeSpan.FromMilliseconds(interval.Value);
                    if (serverTime.HasValue && state != null)
                    {
                        // The server's clock at the moment halfway through the exchange.
                        var offset = (long)(serverTime.Value - (sentAt + TimeSpan.FromTicks((receivedAt - sentAt).Ticks / 2))).TotalMilliseconds;
                        if (Math.Abs(offset - state.ClockOffsetMs) > 1000)
                        {
                            state.ClockOffsetMs = offset;
                            state.Save(options.DataPath);
                        }
                    }
                }
                SetConnected(true);
                FollowSession(JsonFields.AsObject(JsonFields.Get(answer.Body, "session")));
                wake.Fire(); // the server answers: reports waiting for the network can go now
                return HeartbeatInterval;
            }
            if (answer.Status == 401)
            {
                BecomeUnenrolled("the server refused the device token (" + answer.Describe() + ")");
                return HeartbeatInterval;
            }
            if (answer.Status >= 500 || answer.Status == 408) SetConnected(false);
            else if (!IsRetryable(answer.Status)) log("heartbeat refused: " + answer.Describe());
            return answer.RetryAfter.HasValue && answer.RetryAfter.Value > HeartbeatInterval ? answer.RetryAfter.Value : HeartbeatInterval;
        }

        /// <summary>Follows what the server says this headset should be playing.</summary>
        void FollowSession(Dictionary<string, object> session)
        {
            var id = JsonFields.String(session, "id");
            SessionEndInfo ended = null;
            SessionInfo assigned = null;
            lock (gate)
            {
                if (state == null) return;
                if (current != null && current.Id != id)
                {
                    ended = new SessionEndInfo { SessionId = current.Id, Reason = SessionEndReason.EndedByServer };
                    current = null;
                }
                if (id != null && current == null && !finished.Contains(id))
                {
                    current = SessionInfo.FromJson(session);
                    assigned = current;
                }
            }
            if (ended != null) Raise(() => { var handler = SessionEnded; if (handler != null) handler(ended); });
            if (assigned != null) Raise(() => { var handler = SessionAssigned; if (handler != null) handler(assigned); });
        }

        // ---------------------------------------------------------------- reports

        /// <summary>Tasks completed so far in the current session. Completes once the report is on disk.</summary>
        public Task ReportProgressAsync(int completedTasks)
        {
            return ReportProgressAsync(completedTasks, null);
        }

        /// <summary>As <see cref="ReportProgressAsync(int)"/>, with the task that just ended.</summary>
        public Task ReportProgressAsync(int completedTasks, TaskReport task)
        {
            CheckCount(completedTasks);
            var body = new Dictionary<string, object> { { "completed_tasks", completedTasks } };
            if (task != null) body["task"] = task.ToJson();
            Enqueue("progress", body, false, false);
            return Task.FromResult(true);
        }

        /// <summary>Ends the current session as completed, with success or failure. Completes once on disk.</summary>
        public Task FinishAsync(bool success, int completedTasks)
        {
            return FinishAsync(success, completedTasks, null);
        }

        /// <summary>As <see cref="FinishAsync(bool, int)"/>, with every task of the run.</summary>
        public Task FinishAsync(bool success, int completedTasks, IList<TaskReport> tasks)
        {
            CheckCount(completedTasks);
            var body = new Dictionary<string, object> { { "completed_tasks", completedTasks }, { "success", success } };
            if (tasks != null)
            {
                var list = new List<object>();
                foreach (var task in tasks) list.Add(task.ToJson());
                body["tasks"] = list;
            }
            Enqueue("finish", body, true, success);
            return Task.FromResult(true);
        }

        static void CheckCount(int completedTasks)
        {
            if (completedTasks < 0 || completedTasks > MaxCompletedTasks)
                throw new ArgumentOutOfRangeException("completedTasks", "completed tasks are 0.." + MaxCompletedTasks);
        }

        /// <summary>
        /// Writes the report to the outbox on the calling thread, so reports keep the order of the
        /// calls; the write is a small file flushed to disk (milliseconds).
        /// </summary>
        void Enqueue(string kind, Dictionary<string, object> body, bool finishes, bool success)
        {
            SessionEndInfo ended = null;
            lock (gate)
            {
                if (state == null) throw new InvalidOperationException("The headset is not enrolled");
                if (current == null) throw new InvalidOperationException("No session to report on: wait for SessionAssigned");
                var sessionId = current.Id;
                body["occurred_at"] = JsonFields.FormatTime(DateTime.UtcNow + TimeSpan.FromMilliseconds(state.ClockOffsetMs));
                // Progress and finish alike carry the session's next seq: the finish's place after
                // the progress reports (the server ignores an older seq than one it applied).
                long last;
                state.Seq.TryGetValue(sessionId, out last);
                var seq = Math.Max(last, outbox.HighestSeqOf(sessionId)) + 1;
                // Only the current session's count is worth keeping.
                state.Seq.Clear();
                state.Seq[sessionId] = seq;
                state.Save(options.DataPath); // before the report: a crash skips a number, never repeats one
                body["seq"] = seq;
                outbox.Add(kind, sessionId, body);
                if (finishes)
                {
                    finished.Add(sessionId);
                    current = null;
                    ended = new SessionEndInfo
                    {
                        SessionId = sessionId,
                        Reason = SessionEndReason.Finished,
                        Success = success,
                        CompletedTasks = (int)(long)Convert.ToInt64(body["completed_tasks"]),
                    };
                }
                EnsureDeliveryLocked();
            }
            wake.Fire();
            if (ended != null) Raise(() => { var handler = SessionEnded; if (handler != null) handler(ended); });
        }

        /// <summary>
        /// Delivers the outbox (starting the delivery if Start was not called) and waits until it
        /// is empty or the timeout passes: true when every report is delivered (or refused for good
        /// by the server, which is logged).
        /// </summary>
        public async Task<bool> FlushAsync(TimeSpan timeout)
        {
            var deadline = DateTime.UtcNow + timeout;
            lock (gate)
            {
                if (state != null && outbox.Count > 0) EnsureDeliveryLocked();
            }
            wake.Fire();
            while (true)
            {
                var next = delivered.Next;
                if (outbox.Count == 0) return true;
                var left = deadline - DateTime.UtcNow;
                if (left <= TimeSpan.Zero || !IsEnrolled) return outbox.Count == 0;
                await Pulse.WaitAsync(next, left, CancellationToken.None).ConfigureAwait(false);
            }
        }

        async Task DeliveryLoopAsync(CancellationToken cancel)
        {
            while (!cancel.IsCancellationRequested)
            {
                var next = wake.Next;
                var entry = outbox.Peek();
                DeviceState device;
                lock (gate) device = state;
                if (entry == null || device == null)
                {
                    try { await Pulse.WaitAsync(next, Timeout.InfiniteTimeSpan, cancel).ConfigureAwait(false); }
                    catch (OperationCanceledException) { return; }
                    continue;
                }
                try { await DeliverAsync(entry, device, next, cancel).ConfigureAwait(false); }
                catch (Exception) when (cancel.IsCancellationRequested) { return; } // stopped or disposed mid-send
                catch (Exception error)
                {
                    // A bug or a disk error: keep the report, try again later.
                    log("delivery: " + error);
                    try { await Task.Delay(options.RetryMaxDelay, cancel).ConfigureAwait(false); }
                    catch (OperationCanceledException) { return; }
                }
            }
        }

        async Task DeliverAsync(OutboxEntry entry, DeviceState device, Task woken, CancellationToken cancel)
        {
            var path = "/v1/headset/sessions/" + Uri.EscapeDataString(entry.SessionId) + "/" + entry.Kind;
            Answer answer;
            try { answer = await SendAsync(path, entry.Body, device.DeviceToken, entry.IdempotencyKey, cancel).ConfigureAwait(false); }
            catch (HeadsetException)
            {
                SetConnected(false);
                // Network down: wait the backoff, or less if a heartbeat gets through meanwhile.
                await Pulse.WaitAsync(woken, Backoff(entry, null), cancel).ConfigureAwait(false);
                return;
            }
            if (answer.Status >= 200 && answer.Status < 300)
            {
                if (JsonFields.String(answer.Body, "id") == null)
                {
                    // Not the server's answer (a captive portal, a proxy's page): not delivered.
                    log(entry.Kind + " of session " + entry.SessionId + ": an answer that is not the server's (" + answer.Status + "); retrying");
                    await Pulse.WaitAsync(new TaskCompletionSource<bool>().Task, Backoff(entry, null), cancel).ConfigureAwait(false);
                    return;
                }
                Settle(entry);
                SetConnected(true);
                return;
            }
            if (answer.Status == 401)
            {
                BecomeUnenrolled("the server refused the device token (" + answer.Describe() + ")");
                return;
            }
            if (IsRetryable(answer.Status))
            {
                if (answer.Status >= 500) SetConnected(false);
                await Pulse.WaitAsync(new TaskCompletionSource<bool>().Task, Backoff(entry, answer.RetryAfter), cancel).ConfigureAwait(false);
                return;
            }
            // Refused for good (the session is over, the body is wrong, the key was reused): another
            // attempt would get the same answer, and would hold back every report behind it.
            log(entry.Kind + " of session " + entry.SessionId + " dropped: " + answer.Describe());
            Settle(entry);
            if (answer.Status == 409)
            {
                var details = JsonFields.AsObject(JsonFields.Get(answer.Body, "details"));
                var status = JsonFields.String(details, "status");
                if (answer.Code == "session_cancelled") status = "cancelled";
                EndCurrentIf(entry.SessionId, SessionEndInfo.ReasonOf(status));
            }
        }

        void Settle(OutboxEntry entry)
        {
            outbox.Remove(entry);
            delivered.Fire();
        }

        void EndCurrentIf(string sessionId, SessionEndReason reason)
        {
            SessionEndInfo ended = null;
            lock (gate)
            {
                if (current == null || current.Id != sessionId) return;
                current = null;
                ended = new SessionEndInfo { SessionId = sessionId, Reason = reason };
            }
            Raise(() => { var handler = SessionEnded; if (handler != null) handler(ended); });
        }

        /// <summary>Network errors, 408, 429 and 5xx are worth another try; other answers are final.</summary>
        internal static bool IsRetryable(int status)
        {
            return status == 408 || status == 429 || status >= 500;
        }

        /// <summary>
        /// Exponential backoff with jitter: half of min(max, base·2^attempt) plus a random share of the
        /// other half, so headsets cut off together do not come back in step; never shorter than the
        /// server's Retry-After.
        /// </summary>
        TimeSpan Backoff(OutboxEntry entry, TimeSpan? retryAfter)
        {
            entry.Attempts++;
            var exponent = Math.Min(entry.Attempts - 1, 20);
            var ceiling = Math.Min(options.RetryMaxDelay.TotalMilliseconds, options.RetryBaseDelay.TotalMilliseconds * Math.Pow(2, exponent));
            double share;
            lock (random) share = random.NextDouble();
            var delay = TimeSpan.FromMilliseconds(ceiling / 2 + share * ceiling / 2);
            if (retryAfter.HasValue && retryAfter.Value > delay) delay = retryAfter.Value + TimeSpan.FromMilliseconds(share * options.RetryBaseDelay.TotalMilliseconds);
            return delay;
        }

        // ---------------------------------------------------------------- state changes

        void BecomeUnenrolled(string why)
        {
            int dropped;
            lock (gate)
            {
                if (state == null) return;
                state = null;
                current = null;
                finished.Clear();
                DeviceState.Delete(options.DataPath);
                // No report of a removed headset can ever be delivered.
                dropped = outbox.Clear();
                started = false;
                if (lifetime != null)
                {
                    lifetime.Cancel();
                    lifetime = null;
                }
            }
            log("unenrolled: " + why + (dropped > 0 ? "; " + dropped + " undelivered report(s) dropped" : ""));
            delivered.Fire();
            Raise(() => { var handler = Unenrolled; if (handler != null) handler(); });
        }

        void SetConnected(bool now)
        {
            lock (gate)
            {
                if (connected == now) return;
                connected = now;
            }
            Raise(() => { var handler = ConnectionChanged; if (handler != null) handler(now); });
        }

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
            http.Dispose();
        }

        // ---------------------------------------------------------------- HTTP

        sealed class Answer
        {
            public int Status;
            public Dictionary<string, object> Body;
            public string Code;
            public string Message;
            public TimeSpan? RetryAfter;

            public string Describe()
            {
                return Status + " " + (Code ?? "") + (Message != null ? ": " + Message : "");
            }

            public HeadsetException ToException()
            {
                return new HeadsetException(Status, Code ?? "http_error", Message ?? ("HTTP " + Status));
            }
        }

        /// <summary>POSTs a JSON body; any answer is returned, an unreachable server throws HeadsetException(0, "network_error").</summary>
        async Task<Answer> SendAsync(string path, Dictionary<string, object> body, string token, string idempotencyKey, CancellationToken cancel)
        {
            using (var limit = CancellationTokenSource.CreateLinkedTokenSource(cancel))
            using (var request = new HttpRequestMessage(HttpMethod.Post, baseUrl + path))
            {
                limit.CancelAfter(options.RequestTimeout);
                request.Content = new StringContent(Json.Write(body), Encoding.UTF8, "application/json");
                if (token != null) request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", token);
                if (idempotencyKey != null) request.Headers.TryAddWithoutValidation("Idempotency-Key", idempotencyKey);
                try
                {
                    using (var response = await http.SendAsync(request, limit.Token).ConfigureAwait(false))
                    {
                        var text = await response.Content.ReadAsStringAsync().ConfigureAwait(false);
                        var answer = new Answer { Status = (int)response.StatusCode };
                        try { answer.Body = JsonFields.AsObject(Json.Parse(text)); }
                        catch (FormatException) { }
                        answer.Code = JsonFields.String(answer.Body, "error");
                        answer.Message = JsonFields.String(answer.Body, "message");
                        var retryAfter = response.Headers.RetryAfter;
                        if (retryAfter != null)
                        {
                            if (retryAfter.Delta.HasValue) answer.RetryAfter = retryAfter.Delta;
                            else if (retryAfter.Date.HasValue) answer.RetryAfter = retryAfter.Date.Value.UtcDateTime - DateTime.UtcNow;
                            if (answer.RetryAfter < TimeSpan.Zero) answer.RetryAfter = TimeSpan.Zero;
                        }
                        return answer;
                    }
                }
                catch (OperationCanceledException error)
                {
                    if (cancel.IsCancellationRequested) throw;
                    throw new HeadsetException(0, "network_error", "No answer within " + options.RequestTimeout.TotalSeconds + " s", error);
                }
                catch (HttpRequestException error) { throw Network(error); }
                catch (WebException error) { throw Network(error); }
                catch (IOException error) { throw Network(error); }
            }
        }

        static HeadsetException Network(Exception error)
        {
            var inner = error.InnerException != null ? " (" + error.InnerException.Message + ")" : "";
            return new HeadsetException(0, "network_error", "The server cannot be reached: " + error.Message + inner, error);
        }
    }
}
