using System;
using System.Threading;
using System.Threading.Tasks;

namespace Vrtc.Headset
{
    /// <summary>The delivery loop: the outbox's reports, in order, once each is on disk, until the server answers.</summary>
    public sealed partial class HeadsetClient
    {
        async Task DeliveryLoopAsync(CancellationToken cancel)
        {
            while (!cancel.IsCancellationRequested)
            {
                var next = wake.Next;
                var entry = outbox.Peek();
                DeviceState device;
                lock (gate) device = state;
                var durable = entry == null ? null : entry.Durable;
                if (entry == null || device == null || durable == null)
                {
                    // Nothing to send, or its write was not even queued yet (Enqueue fires wake after).
                    try { await Pulse.WaitAsync(next, Timeout.InfiniteTimeSpan, cancel).ConfigureAwait(false); }
                    catch (OperationCanceledException) { return; }
                    continue;
                }
                try
                {
                    // A report is on disk before it is sent.
                    await durable.ConfigureAwait(false);
                    await DeliverAsync(entry, device, next, cancel).ConfigureAwait(false);
                }
                catch (Exception) when (cancel.IsCancellationRequested) { return; } // stopped or disposed mid-send
                catch (Exception) when (durable.IsFaulted) { } // never written: it left the outbox
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
            try { answer = await transport.SendAsync(path, entry.Body, device.DeviceToken, entry.IdempotencyKey, cancel).ConfigureAwait(false); }
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
    }
}
