using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace Vrtc.Headset
{
    /// <summary>
    /// One background thread that does every write of the SDK's folder, in the order the writes
    /// were posted: a report call returns after posting its write (no disk I/O on the caller's
    /// thread, so no frame waits for a flush to the disk), and the writes keep the order of the
    /// calls. Disposing it writes what is still queued before the thread ends.
    /// </summary>
    internal sealed class DiskWriter : IDisposable
    {
        readonly Queue<KeyValuePair<Action, TaskCompletionSource<bool>>> queue = new Queue<KeyValuePair<Action, TaskCompletionSource<bool>>>();
        readonly Action<string> log;
        readonly Thread thread;
        bool closing;

        public DiskWriter(Action<string> log)
        {
            this.log = log;
            thread = new Thread(Run) { IsBackground = true, Name = "Vrtc.Headset disk writer" };
            thread.Start();
        }

        /// <summary>Queues a write; the task completes once it ran (faulted if it threw).</summary>
        public Task Post(Action write)
        {
            // Continuations never run on the writer's thread: it must not wait on an app's code.
            var done = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
            lock (queue)
            {
                if (closing)
                {
                    done.SetException(new ObjectDisposedException("HeadsetClient"));
                    return done.Task;
                }
                queue.Enqueue(new KeyValuePair<Action, TaskCompletionSource<bool>>(write, done));
                Monitor.Pulse(queue);
            }
            return done.Task;
        }

        void Run()
        {
            while (true)
            {
                KeyValuePair<Action, TaskCompletionSource<bool>> next;
                lock (queue)
                {
                    while (queue.Count == 0 && !closing) Monitor.Wait(queue);
                    if (queue.Count == 0) return;
                    next = queue.Dequeue();
                }
                try
                {
                    next.Key();
                    next.Value.TrySetResult(true);
                }
                catch (Exception error)
                {
                    log("a write to the SDK's folder failed: " + error.Message);
                    next.Value.TrySetException(error);
                }
            }
        }

        /// <summary>Writes what is queued, then ends the thread (waits at most <paramref name="limit"/>).</summary>
        public void Close(TimeSpan limit)
        {
            lock (queue)
            {
                closing = true;
                Monitor.Pulse(queue);
            }
            if (Thread.CurrentThread != thread && !thread.Join(limit))
                log("the disk writer did not finish within " + limit.TotalSeconds + " s");
        }

        public void Dispose() { Close(TimeSpan.FromSeconds(5)); }
    }
}
