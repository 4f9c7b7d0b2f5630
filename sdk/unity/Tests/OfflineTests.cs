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
    /// <summary>The client against a server in a delegate: delivery rules that need exact answers.</summary>
    public class OfflineTests
    {
        const string SessionId = "11111111-2222-4333-8444-555555555555";
        FakeServer server;
        List<string> logged;
        HeadsetClient client;
        string folder;

        [SetUp]
        public void SetUp()
        {
            server = new FakeServer();
            logged = new List<string>();
            folder = Folders.New();
        }

        [TearDown]
        public void TearDown()
        {
            if (client != null) client.Dispose();
        }

        HeadsetClient NewClient()
        {
            return new HeadsetClient(new HeadsetOptions
            {
                ServerUrl = "http://headset.test",
                DataPath = folder,
                DeviceName = "Fake-1",
                DeviceType = "quest",
                HttpHandler = server,
                Log = line => { lock (logged) logged.Add(line); },
                RetryBaseDelay = TimeSpan.FromMilliseconds(50),
                RetryMaxDelay = TimeSpan.FromMilliseconds(200),
            });
        }

        static Dictionary<string, object> Launch()
        {
            return new Dictionary<string, object>
            {
                { "id", SessionId }, { "vr_user_name", "Анна" }, { "scenario_name", "Fire" },
                { "module_name", "M1" }, { "level_name", "L2" }, { "level_number", 2 }, { "max_tasks", 3 },
                { "selected_options", new List<object>() }, { "started_at", "2026-01-01T10:00:00.000Z" },
                { "completed_tasks", 0 },
            };
        }

        /// <summary>Enrols and takes the session from a first heartbeat; later answers from <paramref name="reports"/>.</summary>
        IEnumerator Playing(Func<SeenRequest, HttpResponseMessage> reports)
        {
            server.Answer = seen =>
            {
                if (seen.Path == HeadsetClient.EnrollPath)
                    return FakeServer.Json(201, new Dictionary<string, object> { { "device_id", "d1" }, { "device_token", "t1" } });
                if (seen.Path == HeadsetClient.HeartbeatPath)
                    return FakeServer.Json(200, new Dictionary<string, object>
                    {
                        { "device_id", "d1" }, { "movement_type", "slide" }, { "heartbeat_interval_ms", 60000 },
                        { "session", Launch() }, { "server_time", "2026-01-01T10:00:00.000Z" },
                    });
                return reports(seen);
            };
            client = NewClient();
            var events = new Events(client);
            Wait.Done(client.EnrollAsync("ABCD1234"));
            client.Start();
            yield return events.UntilAssigned(SessionId);
        }

        static HttpResponseMessage Accepted()
        {
            return FakeServer.Json(200, new Dictionary<string, object> { { "id", SessionId }, { "status", "active" }, { "completed_tasks", 1 }, { "max_tasks", 3 } });
        }

        List<SeenRequest> Reports()
        {
            return server.Seen.Where(r => r.Answered && r.Path.StartsWith("/v1/headset/sessions/")).ToList();
        }

        [UnityTest]
        public IEnumerator RetriesA503AfterRetryAfterWithTheSameIdempotencyKey()
        {
            var attempts = 0;
            yield return Playing(seen =>
            {
                if (++attempts > 1) return Accepted();
                var busy = FakeServer.Json(503, new Dictionary<string, object> { { "error", "service_unavailable" }, { "message", "later" } });
                busy.Headers.RetryAfter = new System.Net.Http.Headers.RetryConditionHeaderValue(TimeSpan.FromSeconds(1));
                return busy;
            });
            Wait.Done(client.ReportProgressAsync(1, new TaskReport(1, TaskResult.Passed) { Score = 90 }));
            Assert.IsTrue(Wait.Result(client.FlushAsync(TimeSpan.FromSeconds(10))), "delivered");
            var sent = Reports();
            Assert.AreEqual(2, sent.Count, "two attempts");
            Assert.IsTrue(sent[1].At - sent[0].At >= TimeSpan.FromSeconds(1), "waited Retry-After, waited " + (sent[1].At - sent[0].At));
            Assert.IsNotNull(sent[0].IdempotencyKey);
            Assert.AreEqual(sent[0].IdempotencyKey, sent[1].IdempotencyKey, "same key on the retry");
            Assert.AreEqual(36, sent[0].IdempotencyKey.Length, "a UUID");
            Assert.AreEqual(1L, sent[0].Body["seq"]);
            Assert.IsNotNull(sent[0].Body["occurred_at"]);
            Assert.AreEqual("passed", ((Dictionary<string, object>)sent[0].Body["task"])["result"]);
            Assert.AreEqual(0, client.PendingReports);
        }

        [UnityTest]
        public IEnumerator DropsAReportRefusedForGoodWithALoggedReasonAndSendsTheNextOnes()
        {
            yield return Playing(seen => (long)seen.Body["completed_tasks"] == 1
                ? FakeServer.Json(400, new Dictionary<string, object> { { "error", "validation_error" }, { "message", "completed_tasks: too many" } })
                : Accepted());
            Wait.Done(client.ReportProgressAsync(1));
            Wait.Done(client.ReportProgressAsync(2));
            Wait.Done(client.FinishAsync(true, 3));
            Assert.IsTrue(Wait.Result(client.FlushAsync(TimeSpan.FromSeconds(10))));
            var sent = Reports();
            Assert.AreEqual(3, sent.Count, "each sent once");
            Assert.AreEqual("1,2,3", string.Join(",", sent.Select(r => r.Body["seq"])), "in order, seq per session");
            Assert.IsTrue(sent[2].Path.EndsWith("/finish"));
            Assert.AreEqual(3, sent.Select(r => r.IdempotencyKey).Distinct().Count(), "a key per report");
            lock (logged) Assert.IsTrue(logged.Any(line => line.Contains("dropped") && line.Contains("validation_error")), "the drop is logged");
        }

        [UnityTest]
        public IEnumerator KeepsReportsWhileTheNetworkIsDownAndSendsThemInOrderWhenItReturns()
        {
            var down = true;
            yield return Playing(seen =>
            {
                if (down) throw new HttpRequestException("unreachable");
                return Accepted();
            });
            for (var task = 1; task <= 3; task++) Wait.Done(client.ReportProgressAsync(task));
            Wait.Done(client.FinishAsync(false, 3));
            Assert.AreEqual(4, client.PendingReports, "all four on disk");
            Assert.IsFalse(Wait.Result(client.FlushAsync(TimeSpan.FromMilliseconds(300))), "not delivered while down");
            Assert.AreEqual(4, Directory.GetFiles(Path.Combine(folder, "outbox"), "*.json").Length);
            down = false;
            Assert.IsTrue(Wait.Result(client.FlushAsync(TimeSpan.FromSeconds(10))));
            var bodies = Reports().Select(r => r.Body).ToList();
            Assert.AreEqual("1,2,3,3", string.Join(",", bodies.Select(b => b["completed_tasks"])));
            Assert.AreEqual(false, bodies[3]["success"]);
            Assert.AreEqual(0, Directory.GetFiles(Path.Combine(folder, "outbox"), "*.json").Length, "outbox emptied");
        }

        [UnityTest]
        public IEnumerator ANewProcessSendsTheOutboxWithTheKeysItWasWrittenWithAndGoesOnCountingSeq()
        {
            var down = true;
            yield return Playing(seen =>
            {
                if (down) throw new HttpRequestException("unreachable");
                return Accepted();
            });
            Wait.Done(client.ReportProgressAsync(1));
            Wait.Done(client.ReportProgressAsync(2));
            yield return Wait.Until(() => server.Seen.Any(r => r.Path.EndsWith("/progress")), "a first attempt");
            var triedKey = server.Seen.First(r => r.Path.EndsWith("/progress")).IdempotencyKey;
            client.Dispose(); // the process dies with two reports in its outbox

            down = false;
            var before = server.Seen.Count;
            client = NewClient();
            var events = new Events(client);
            Assert.IsTrue(client.IsEnrolled);
            Assert.AreEqual(2, client.PendingReports);
            client.Start();
            Assert.IsTrue(Wait.Result(client.FlushAsync(TimeSpan.FromSeconds(10))));
            yield return events.UntilAssigned(SessionId); // the server still lists the session: play on
            Wait.Done(client.ReportProgressAsync(3));
            Assert.IsTrue(Wait.Result(client.FlushAsync(TimeSpan.FromSeconds(10))));

            var sent = server.Seen.Skip(before).Where(r => r.Answered && r.Path.EndsWith("/progress")).ToList();
            Assert.AreEqual(triedKey, sent[0].IdempotencyKey, "the key written with the report, not a new one");
            Assert.AreEqual("1,2,3", string.Join(",", sent.Select(r => r.Body["seq"])), "seq goes on after the restart");
            Assert.AreEqual(3, sent.Select(r => r.IdempotencyKey).Distinct().Count());
        }

        [UnityTest]
        public IEnumerator A401OnAReportUnenrolsAndDropsWhatCanNeverBeDelivered()
        {
            yield return Playing(seen => FakeServer.Json(401, new Dictionary<string, object> { { "error", "unauthorized" }, { "message", "gone" } }));
            var unenrolled = 0;
            client.Unenrolled += () => unenrolled++;
            Wait.Done(client.ReportProgressAsync(1));
            yield return Wait.Until(() => unenrolled == 1, "Unenrolled");
            Assert.IsFalse(client.IsEnrolled);
            Assert.AreEqual(0, client.PendingReports);
            Assert.IsFalse(File.Exists(Path.Combine(folder, "device.json")), "the token is gone");
        }

        [UnityTest]
        public IEnumerator AnAnswerThatIsNotTheServersIsNotTakenForDelivery()
        {
            var portal = true;
            yield return Playing(seen =>
            {
                if (!portal) return Accepted();
                portal = false;
                return new HttpResponseMessage(System.Net.HttpStatusCode.OK) { Content = new StringContent("<html>Sign in to the Wi-Fi</html>") };
            });
            Wait.Done(client.ReportProgressAsync(1));
            Assert.IsTrue(Wait.Result(client.FlushAsync(TimeSpan.FromSeconds(10))));
            Assert.AreEqual(2, Reports().Count, "sent again after the portal's page");
        }

        [UnityTest]
        public IEnumerator ReportsNeedASession()
        {
            yield return Playing(seen => Accepted());
            Wait.Done(client.FinishAsync(true, 3));
            Assert.IsNull(client.CurrentSession, "finished: no current session");
            Assert.Throws<InvalidOperationException>(() => client.ReportProgressAsync(1));
            Assert.Throws<ArgumentOutOfRangeException>(() => client.FinishAsync(true, -1));
        }
    }

    public class StorageTests
    {
        [Test]
        public void JsonReadsAndWritesTheProtocolsValues()
        {
            var text = "{\"a\":\"Пожарная \\\"безопасность\\\"\\n\",\"n\":-12,\"x\":1.5e2,\"ok\":true,\"none\":null,\"list\":[1,{\"b\":[]}],\"u\":\"\\u00e9\"}";
            var o = (Dictionary<string, object>)Json.Parse(text);
            Assert.AreEqual("Пожарная \"безопасность\"\n", o["a"]);
            Assert.AreEqual(-12L, o["n"]);
            Assert.AreEqual(150.0, o["x"]);
            Assert.AreEqual(true, o["ok"]);
            Assert.IsNull(o["none"]);
            Assert.AreEqual("é", o["u"]);
            Assert.AreEqual(text.Replace("\\u00e9", "é").Replace("1.5e2", "150"), Json.Write(o));
            Assert.Throws<FormatException>(() => Json.Parse("{\"a\":1,}"));
            Assert.Throws<FormatException>(() => Json.Parse("[1] 2"));
        }

        [Test]
        public void TheOutboxIgnoresUnfinishedWritesAndSetsAsideUnreadableFiles()
        {
            var folder = Folders.New();
            var outbox = Path.Combine(folder, "outbox");
            Directory.CreateDirectory(outbox);
            File.WriteAllText(Path.Combine(outbox, "000000000001.json"),
                "{\"kind\":\"progress\",\"session_id\":\"s1\",\"idempotency_key\":\"k1\",\"body\":{\"completed_tasks\":1,\"seq\":1}}");
            File.WriteAllText(Path.Combine(outbox, "000000000002.json"), "{\"kind\":\"progr");
            File.WriteAllText(Path.Combine(outbox, "000000000003.json.tmp"), "{");
            using (var client = new HeadsetClient(new HeadsetOptions
            {
                ServerUrl = "http://headset.test", DataPath = folder, DeviceName = "x", DeviceType = "quest", Log = line => { },
            }))
            {
                Assert.AreEqual(1, client.PendingReports);
                Assert.IsFalse(client.IsEnrolled);
            }
            Assert.IsFalse(File.Exists(Path.Combine(outbox, "000000000003.json.tmp")), "an unfinished write is removed");
            Assert.IsTrue(File.Exists(Path.Combine(outbox, "unreadable", "000000000002.json")), "kept aside");
        }
    }
}
