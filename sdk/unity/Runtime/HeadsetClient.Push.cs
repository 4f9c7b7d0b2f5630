using System;
using System.Globalization;
using System.Threading;
using System.Threading.Tasks;

namespace Vrtc.Headset
{
    /// <summary>
    /// The push channel (docs/headset-protocol.md, GET /v1/headset/events): a long-poll kept open on
    /// a background thread, whose answers are followed exactly as the heartbeat's are, so a session
    /// started or cancelled in the console raises SessionAssigned or SessionEnded within a second.
    /// The heartbeat stays the fallback: when the channel fails the loop waits and tries again, and
    /// a server without the channel (404) is followed by heartbeats alone.
    /// </summary>
    public sealed partial class HeadsetClient
    {
        public const string EventsPath = "/v1/headset/events";

        static readonly TimeSpan PushRetryFirst = TimeSpan.FromSeconds(1);
        static readonly TimeSpan PushRetryMax = TimeSpan.FromSeconds(30);

        async Task PushLoopAsync(CancellationToken cancel)
        {
            var wait = options.PushWait;
            var query = EventsPath + "?wait=" + ((int)wait.TotalSeconds).ToString(CultureInfo.InvariantCulture);
            string known = null; // the session id the last answer gave: the server answers when it differs
            var failures = 0;
            while (!cancel.IsCancellationRequested)
            {
                DeviceState device;
                lock (gate) device = state;
                if (device == null) return;
                Answer answer = null;
                var sentAt = DateTime.UtcNow;
                try
                {
                    var path = known == null ? query : query + "&session=" + Uri.EscapeDataString(known);
                    answer = await transport.GetAsync(path, device.DeviceToken, wait, cancel).ConfigureAwait(false);
                }
                catch (Exception) when (cancel.IsCancellationRequested) { return; }
                catch (HeadsetException) { }
                if (answer != null && answer.Status == 200 && answer.Body != null)
                {
                    failures = 0;
                    var told = JsonFields.String(JsonFields.AsObject(JsonFields.Get(answer.Body, "session")), "id");
                    var unchanged = told == known;
                    known = told;
                    FollowSession(answer.Body);
                    // Answered early with nothing new (a node shutting down, a second call): not at once again.
                    if (!unchanged || DateTime.UtcNow - sentAt >= TimeSpan.FromTicks(wait.Ticks / 2)) continue;
                    try { await Task.Delay(PushRetryFirst, cancel).ConfigureAwait(false); }
                    catch (OperationCanceledException) { return; }
                    continue;
                }
                if (answer != null && answer.Status == 401)
                {
                    BecomeUnenrolled("the server refused the device token (" + answer.Describe() + ")");
                    return;
                }
                if (answer != null && (answer.Status == 404 || answer.Status == 405))
                {
                    log("the server has no push channel (" + answer.Describe() + "): sessions arrive with heartbeats");
                    return;
                }
                failures++;
                try { await Task.Delay(PushRetryDelay(failures, answer), cancel).ConfigureAwait(false); }
                catch (OperationCanceledException) { return; }
            }
        }

        /// <summary>1 s doubling to 30 s with jitter (or the server's Retry-After when longer).</summary>
        TimeSpan PushRetryDelay(int failures, Answer answer)
        {
            var ms = PushRetryFirst.TotalMilliseconds * Math.Pow(2, Math.Min(failures - 1, 10));
            ms = Math.Min(ms, PushRetryMax.TotalMilliseconds);
            double jitter;
            lock (random) jitter = 0.5 + random.NextDouble() / 2;
            var delay = TimeSpan.FromMilliseconds(ms * jitter);
            if (answer != null && answer.RetryAfter.HasValue && answer.RetryAfter.Value > delay) delay = answer.RetryAfter.Value;
            return delay;
        }
    }
}
