using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace Vrtc.Headset
{
    /// <summary>The heartbeat, and the session it says to play: taken, resumed after a restart, ended with its reason.</summary>
    public sealed partial class HeadsetClient
    {
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
            int? batteryNow;
            lock (gate)
            {
                device = state;
                batteryNow = battery;
            }
            if (device == null) return HeartbeatInterval;
            SampleReadings(); // for the next heartbeat: read on the main thread, never here
            var body = new Dictionary<string, object>();
            if (batteryNow.HasValue) body["battery_percent"] = batteryNow.Value;
            if (!string.IsNullOrEmpty(options.AppVersion)) body["app_version"] = options.AppVersion;
            body["pending_reports"] = outbox.Count;

            var sentAt = clock.UtcNow;
            Answer answer;
            try { answer = await transport.SendAsync(HeartbeatPath, body, device.DeviceToken, null, cancel).ConfigureAwait(false); }
            catch (HeadsetException)
            {
                SetConnected(false);
                return HeartbeatInterval;
            }
            if (answer.Status == 200 && answer.Body != null)
            {
                Learn(answer.Body, sentAt, clock.UtcNow);
                SetConnected(true);
                FollowSession(answer.Body);
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

        /// <summary>The server's interval and clock, from a heartbeat's answer.</summary>
        void Learn(Dictionary<string, object> answer, DateTime sentAt, DateTime receivedAt)
        {
            var interval = JsonFields.Long(answer, "heartbeat_interval_ms");
            var serverTime = JsonFields.Time(answer, "server_time");
            string save = null;
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
                        save = state.ToJson();
                    }
                }
            }
            if (save != null) writer.Post(() => DeviceState.Write(options.DataPath, save));
        }

        /// <summary>Follows what the server (a heartbeat's or the push channel's answer) says this headset should be playing, and why a session went.</summary>
        void FollowSession(Dictionary<string, object> answer)
        {
            // The heartbeat and the push channel answer on their own threads: one at a time, events included.
            lock (follow) FollowSessionLocked(answer);
        }

        void FollowSessionLocked(Dictionary<string, object> answer)
        {
            var session = JsonFields.AsObject(JsonFields.Get(answer, "session"));
            var endedSession = JsonFields.AsObject(JsonFields.Get(answer, "ended_session"));
            var id = JsonFields.String(session, "id");
            SessionEndInfo ended = null;
            SessionInfo assigned = null;
            lock (gate)
            {
                if (state == null) return;
                if (current != null && current.Id == id)
                {
                    var held = (int)(JsonFields.Long(session, "completed_tasks") ?? 0);
                    if (held > current.CompletedTasks) current.CompletedTasks = held;
                    resumed = null; // the server confirms it: a Start after this announces nothing new
                }
                if (current != null && current.Id != id)
                {
                    var reason = JsonFields.String(endedSession, "id") == current.Id
                        ? SessionEndInfo.ReasonOf(JsonFields.String(endedSession, "status"))
                        : SessionEndReason.EndedByServer;
                    ended = EndCurrentLocked(reason);
                }
                if (id != null && current == null && !finished.Contains(id))
                {
                    assigned = TakeLocked(new SessionRecord { Launch = session, MovementType = JsonFields.String(answer, "movement_type") });
                    var json = record.ToJson();
                    writer.Post(() => SessionRecord.Write(options.DataPath, json));
                }
            }
            if (ended != null) Raise(() => SessionEnded?.Invoke(ended));
            if (assigned != null) Raise(() => SessionAssigned?.Invoke(assigned));
        }

        /// <summary>
        /// Makes the session current: its seq goes on after the highest any earlier process used,
        /// and its CompletedTasks counts the reports still in the outbox, so the app resumes after them.
        /// </summary>
        SessionInfo TakeLocked(SessionRecord taken)
        {
            var id = taken.Id;
            long stored;
            state.Seq.TryGetValue(id, out stored);
            taken.LastSeq = Math.Max(Math.Max(taken.LastSeq, stored), outbox.HighestSeqOf(id));
            taken.ReportedTasks = Math.Max(taken.ReportedTasks, outbox.HighestCountOf(id));
            record = taken;
            current = SessionInfo.FromJson(taken.Launch, taken.MovementType);
            if (taken.ReportedTasks > current.CompletedTasks) current.CompletedTasks = taken.ReportedTasks;
            return current;
        }

        /// <summary>The session an earlier process was playing, from session.json: current at once, announced by Start.</summary>
        void Resume(SessionRecord stored)
        {
            if (stored == null) return;
            lock (gate)
            {
                if (finished.Contains(stored.Id)) return;
                resumed = TakeLocked(stored);
            }
        }

        /// <summary>Ends the current session for the app; session.json goes (after the writes queued before).</summary>
        SessionEndInfo EndCurrentLocked(SessionEndReason reason, bool forgetRecord = true)
        {
            var ended = new SessionEndInfo { SessionId = current.Id, Reason = reason, CompletedTasks = current.CompletedTasks };
            current = null;
            record = null;
            resumed = null;
            if (forgetRecord) writer.Post(() => SessionRecord.Delete(options.DataPath));
            return ended;
        }

        void EndCurrentIf(string sessionId, SessionEndReason reason)
        {
            SessionEndInfo ended;
            lock (gate)
            {
                if (current == null || current.Id != sessionId) return;
                ended = EndCurrentLocked(reason);
            }
            Raise(() => SessionEnded?.Invoke(ended));
        }

        void BecomeUnenrolled(string why)
        {
            int dropped;
            lock (gate)
            {
                if (state == null) return;
                state = null;
                current = null;
                record = null;
                resumed = null;
                finished.Clear();
                // No report of a removed headset can ever be delivered.
                dropped = outbox.Clear();
                started = false;
                if (lifetime != null)
                {
                    lifetime.Cancel();
                    lifetime = null;
                }
            }
            // On a loop's thread, never the app's: wait, so the token is gone when Unenrolled is raised.
            try
            {
                writer.Post(() =>
                {
                    DeviceState.Delete(options.DataPath);
                    SessionRecord.Delete(options.DataPath);
                }).Wait(TimeSpan.FromSeconds(5));
            }
            catch (AggregateException error) { log("could not forget the token: " + error.InnerException.Message); }
            log("unenrolled: " + why + (dropped > 0 ? "; " + dropped + " undelivered report(s) dropped" : ""));
            delivered.Fire();
            Raise(() => Unenrolled?.Invoke());
        }
    }
}
