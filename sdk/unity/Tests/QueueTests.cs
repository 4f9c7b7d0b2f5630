using System;
using System.Collections;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net.Http;
using NUnit.Framework;
using UnityEngine.TestTools;

namespace Vrtc.Headset.Tests
{
    /// <summary>Enrolment results an enrolment screen shows, and reports queued without a disk wait.</summary>
    public class QueueTests
    {
        const string SessionId = "22222222-3333-4444-8555-666666666666";
        FakeServer server;
        HeadsetClient client;
        string folder;

        [SetUp]
        public void SetUp()
        {
            server = new FakeServer();
            folder = Folders.New();
        }

        [TearDown]
        public void TearDown()
        {
            if (client != null) client.Dispose();
        }

        HeadsetClient NewClient()
        {
            return client = new HeadsetClient(new HeadsetOptions
            {
                ServerUrl = "http://headset.test",
                DataPath = folder,
                DeviceName = "Queue-1",
                DeviceType = "pico",
                HttpHandler = server,
                Log = line => { },
                RetryBaseDelay = TimeSpan.FromMilliseconds(50),
                RetryMaxDelay = TimeSpan.FromMilliseconds(200),
            });
        }

        static HttpResponseMessage Refusal(int status, string code, Dictionary<string, object> details = null)
        {
            var body = new Dictionary<string, object> { { "error", code }, { "message", "refused" } };
            if (details != null) body["details"] = details;
            return FakeServer.Json(status, body);
        }

        EnrollmentResult TryEnrol(Func<HttpResponseMessage> answer)
        {
            server.Answer = seen => answer();
            using (var fresh = NewClient()) return Wait.Result(fresh.TryEnrollAsync("ABCD1234"));
        }

        [Test]
        public void TryEnrollSaysWhatTheEnrolmentScreenShows()
        {
            Assert.AreEqual(EnrollmentOutcome.WrongCode, TryEnrol(() => Refusal(400, "enrollment_code_invalid")).Outcome);
            Assert.AreEqual(EnrollmentOutcome.ExpiredCode, TryEnrol(() => Refusal(400, "enrollment_code_invalid",
                new Dictionary<string, object> { { "reason", "expired" } })).Outcome);
            var limited = TryEnrol(() =>
            {
                var answer = Refusal(429, "rate_limited");
                answer.Headers.RetryAfter = new System.Net.Http.Headers.RetryConditionHeaderValue(TimeSpan.FromSeconds(60));
                return answer;
            });
            Assert.AreEqual(EnrollmentOutcome.TooManyAttempts, limited.Outcome);
            Assert.AreEqual(60, limited.RetryAfterSeconds);
            Assert.AreEqual(EnrollmentOutcome.QuotaExceeded, TryEnrol(() => Refusal(409, "quota_exceeded")).Outcome);
            Assert.AreEqual(EnrollmentOutcome.NetworkError, TryEnrol(() => { throw new HttpRequestException("no route to host"); }).Outcome);
            Assert.AreEqual(EnrollmentOutcome.WrongCode, Wait.Result(NewClient().TryEnrollAsync("  ")).Outcome, "no code typed");
            var enrolled = TryEnrol(() => FakeServer.Json(201, new Dictionary<string, object> { { "device_id", "d9" }, { "device_token", "t9" } }));
            Assert.IsTrue(enrolled.Succeeded);
            Assert.AreEqual("d9", enrolled.DeviceId);
        }

        /// <summary>Enrolled, playing a 500-task session, the network down: reports only queue.</summary>
        IEnumerator PlayingOffline() { return Playing(false, 60000); }

        /// <summary>Enrolled, playing a 500-task session; reports accepted or the network down for them.</summary>
        IEnumerator Playing(bool accepting, int heartbeatMs)
        {
            server.Answer = seen =>
            {
                if (seen.Path == HeadsetClient.EnrollPath)
                    return FakeServer.Json(201, new Dictionary<string, object> { { "device_id", "d1" }, { "device_token", "t1" } });
                if (seen.Path == HeadsetClient.HeartbeatPath)
                    return FakeServer.Json(200, new Dictionary<string, object>
                    {
                        { "device_id", "d1" }, { "movement_type", "teleport" }, { "heartbeat_interval_ms", heartbeatMs },
                        { "session", new Dictionary<string, object>
                            {
                                { "id", SessionId }, { "level_id", "L" }, { "level_revision", 4 }, { "max_tasks", 500 },
                                { "started_at", "2026-01-01T10:00:00.000Z" }, { "completed_tasks", 0 },
                            } },
                        { "ended_session", null }, { "server_time", "2026-01-01T10:00:00.000Z" },
                    });
                if (accepting) return FakeServer.Json(200, new Dictionary<string, object> { { "id", SessionId }, { "status", "active" } });
                throw new HttpRequestException("unreachable"); // reports find no network
            };
            NewClient();
            var events = new Events(client);
            Wait.Done(client.EnrollAsync("ABCD1234"));
            client.Start();
            yield return events.UntilAssigned(SessionId);
            Assert.AreEqual("teleport", client.CurrentSession.MovementType, "the heartbeat's movement type when the session has none");
            Assert.AreEqual(4, client.CurrentSession.LevelRevision);
        }

        [UnityTest]
        public IEnumerator ReportsQueuedInARowKeepTheirOrderAndAreOnDiskWhenTheirTasksComplete()
        {
            yield return PlayingOffline();
            var calls = new List<System.Threading.Tasks.Task>();
            for (var task = 1; task <= 200; task++) calls.Add(client.ReportProgressAsync(task));
            Assert.AreEqual(200, client.PendingReports, "each counted as soon as the call returns");
            Assert.AreEqual(200, client.CurrentSession.CompletedTasks);
            foreach (var call in calls) Wait.Done(call);
            var files = Directory.GetFiles(Path.Combine(folder, "outbox"), "*.json").OrderBy(f => f, StringComparer.Ordinal).ToList();
            Assert.AreEqual(200, files.Count, "every completed task is a report on disk");
            var seqs = files.Select(f => ((Dictionary<string, object>)((Dictionary<string, object>)Json.Parse(File.ReadAllText(f)))["body"])["seq"]).ToList();
            Assert.AreEqual(string.Join(",", Enumerable.Range(1, 200)), string.Join(",", seqs), "the files keep the calls' order");
        }

        [UnityTest]
        public IEnumerator AReportReturnsWhileTheDiskIsStuck_AndIsNotSentBeforeItIsWritten()
        {
            yield return Playing(true, 20);
            // The first report's temporary file is a named pipe: writing it blocks until someone
            // reads it, as a stalled flash write would. The caller must not notice.
            var pipe = Path.Combine(folder, "outbox", "000000000001.json.tmp");
            if (!MakeFifo(pipe)) Assert.Ignore("needs mkfifo (Linux, macOS)");
            var started = DateTime.UtcNow;
            var call = client.ReportProgressAsync(1);
            Assert.IsTrue(DateTime.UtcNow - started < TimeSpan.FromSeconds(1), "returned while the write is stuck");
            Assert.AreEqual(1, client.PendingReports);
            Assert.AreEqual(1, client.CurrentSession.CompletedTasks);
            // Heartbeats answered wake the delivery loop each time: let a few go by.
            var heartbeats = server.Seen.Count(r => r.Path == HeadsetClient.HeartbeatPath);
            yield return Wait.Until(() => server.Seen.Count(r => r.Path == HeadsetClient.HeartbeatPath) >= heartbeats + 3, "three more heartbeats");
            Assert.IsFalse(call.IsCompleted, "not on disk yet");
            Assert.IsFalse(server.Seen.Any(r => r.Path.EndsWith("/progress")), "not sent before it is on disk");
            // Unstick the disk: read the pipe; the write goes on (a pipe cannot be flushed, so it may fail).
            var reader = System.Threading.Tasks.Task.Run(() =>
            {
                using (var stream = new FileStream(pipe, FileMode.Open, FileAccess.Read))
                    while (stream.Read(new byte[4096], 0, 4096) > 0) { }
            });
            yield return Wait.Until(() => call.IsCompleted, "the report's write to end");
            Wait.Done(reader);
        }

        bool MakeFifo(string path)
        {
            try
            {
                var make = System.Diagnostics.Process.Start(new System.Diagnostics.ProcessStartInfo("mkfifo", "\"" + path + "\"") { UseShellExecute = false });
                make.WaitForExit();
                return make.ExitCode == 0;
            }
            catch (Exception) { return false; }
        }

        [UnityTest]
        public IEnumerator DisposeWritesEveryReportAlreadyQueued()
        {
            yield return PlayingOffline();
            for (var task = 1; task <= 50; task++) client.ReportProgressAsync(task);
            client.FinishAsync(true, 50);
            client.Dispose(); // the app quits right after its calls returned
            Assert.AreEqual(51, Directory.GetFiles(Path.Combine(folder, "outbox"), "*.json").Length);
            Assert.IsFalse(File.Exists(Path.Combine(folder, "session.json")), "finished: nothing to resume");
            client = NewClient();
            Assert.AreEqual(51, client.PendingReports, "the next start finds them all");
            Assert.IsNull(client.CurrentSession, "the finished session is not resumed");
        }
    }
}
