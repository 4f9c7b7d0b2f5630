using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace Vrtc.Headset
{
    /// <summary>
    /// Reports: made on the caller's thread in memory only, written by the disk writer, delivered
    /// in order by the delivery loop.
    ///
    /// What "queued" promises: when ReportProgressAsync or FinishAsync returns, the report has its
    /// place in the order (its seq, its Idempotency-Key) and counts in PendingReports; it will be
    /// written to disk before any report made after it, and sent only once written. The task it
    /// returns completes once the report is on disk (flushed and renamed into DataPath/outbox):
    /// from then on no crash of the app loses it. A crash between the return and the task's
    /// completion (a few milliseconds) may lose that report and those made after it, never one
    /// before it and never out of order; Dispose waits for the writes already queued.
    /// </summary>
    public sealed partial class HeadsetClient
    {
        const int MaxCompletedTasks = 10000;
        /// <summary>The newest session record queued: an older one still in the queue is not written (the outbox has its counts).</summary>
        long recordsQueued;

        /// <summary>Tasks completed so far in the current session. Returns at once; the task completes once the report is on disk.</summary>
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
            return Enqueue("progress", body, false, false);
        }

        /// <summary>Ends the current session as completed, with success or failure. Returns at once; the task completes once on disk.</summary>
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
            return Enqueue("finish", body, true, success);
        }

        static void CheckCount(int completedTasks)
        {
            if (completedTasks < 0 || completedTasks > MaxCompletedTasks)
                throw new ArgumentOutOfRangeException("completedTasks", "completed tasks are 0.." + MaxCompletedTasks);
        }

        /// <summary>
        /// Gives the report its seq and place in the outbox (memory only), and queues its write and
        /// the session's record after it: the caller's thread touches no disk.
        /// </summary>
        Task Enqueue(string kind, Dictionary<string, object> body, bool finishes, bool success)
        {
            SessionEndInfo ended = null;
            OutboxEntry entry;
            SessionRecord recordNow = null;
            long recordNumber = 0;
            var now = clock.UtcNow;
            lock (gate)
            {
                if (disposed) throw new ObjectDisposedException("HeadsetClient");
                if (state == null) throw new InvalidOperationException("The headset is not enrolled");
                if (current == null) throw new InvalidOperationException("No session to report on: wait for SessionAssigned");
                var sessionId = current.Id;
                body["occurred_at"] = JsonFields.FormatTime(now + TimeSpan.FromMilliseconds(state.ClockOffsetMs));
                // Progress and finish alike carry the session's next seq: the finish's place after
                // the progress reports (the server ignores an older seq than one it applied).
                var seq = ++record.LastSeq;
                body["seq"] = seq;
                var done = (int)body["completed_tasks"];
                if (done > record.ReportedTasks) record.ReportedTasks = done;
                if (done > current.CompletedTasks) current.CompletedTasks = done;
                entry = outbox.Reserve(kind, sessionId, body);
                if (finishes)
                {
                    finished.Add(sessionId);
                    ended = EndCurrentLocked(SessionEndReason.Finished, false);
                    ended.Success = success;
                    ended.CompletedTasks = done;
                }
                else
                {
                    recordNow = record.Copy(); // its JSON is made on the writer's thread
                    recordNumber = ++recordsQueued;
                }
                EnsureDeliveryLocked();
            }
            // The report first, then the record that counts it: a crash between the two leaves a
            // record behind the outbox, and the outbox wins on the next start (seq, tasks).
            entry.Durable = writer.Post(() =>
            {
                try { outbox.Persist(entry, now); }
                catch (Exception)
                {
                    outbox.Forget(entry);
                    delivered.Fire();
                    throw;
                }
                // A newer record waits behind this write: it alone needs the disk (one flush, not two, a report when the writer is behind).
                if (recordNow != null && recordNumber == Interlocked.Read(ref recordsQueued)) SessionRecord.Write(options.DataPath, recordNow.ToJson());
                else SessionRecord.Delete(options.DataPath); // finished: the outbox's finish says so
            });
            wake.Fire();
            if (ended != null) Raise(() => SessionEnded?.Invoke(ended));
            return entry.Durable;
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
                if (state != null && outbox.Count > 0 && !disposed) EnsureDeliveryLocked();
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
    }
}
