using System;
using System.Threading;
using System.Threading.Tasks;

namespace Vrtc.Headset
{
    /// <summary>
    /// "Something changed": a waiter takes <see cref="Next"/> before it checks its condition, then
    /// awaits it; <see cref="Fire"/> wakes every waiter. No wake-up is lost between check and wait.
    /// </summary>
    internal sealed class Pulse
    {
        readonly object gate = new object();
        TaskCompletionSource<bool> next = NewSource();

        static TaskCompletionSource<bool> NewSource()
        {
            // Continuations never run inside Fire(), which is called with locks held elsewhere.
            return new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
        }

        public Task Next { get { lock (gate) return next.Task; } }

        public void Fire()
        {
            TaskCompletionSource<bool> fired;
            lock (gate)
            {
                fired = next;
                next = NewSource();
            }
            fired.TrySetResult(true);
        }

        /// <summary>Waits for <paramref name="pulse"/> or the delay, whichever is first; throws when cancelled.</summary>
        public static async Task WaitAsync(Task pulse, TimeSpan delay, CancellationToken cancel)
        {
            using (var stopDelay = CancellationTokenSource.CreateLinkedTokenSource(cancel))
            {
                var wait = delay == Timeout.InfiniteTimeSpan ? Task.Delay(Timeout.Infinite, stopDelay.Token) : Task.Delay(delay, stopDelay.Token);
                await Task.WhenAny(pulse, wait).ConfigureAwait(false);
                stopDelay.Cancel();
            }
            cancel.ThrowIfCancellationRequested();
        }
    }
}
