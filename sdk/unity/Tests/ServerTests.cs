using System;
using System.Collections;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using NUnit.Framework;
using UnityEngine.TestTools;

namespace Vrtc.Headset.Tests
{
    /// <summary>
    /// The client against the real server (scripts/sdk-test.mjs starts it): what a trainee's app and
    /// the staff in the console would see.
    /// </summary>
    public class ServerTests : ServerFixture
    {
        static List<object> List(Dictionary<string, object> o, string key) { return (List<object>)o[key]; }

        [Test]
        public void EnrolsWithTheConsolesCodeAndKeepsTheTokenInDataPath()
        {
            var folder = Folders.New();
            var first = Track(new HeadsetClient(staff.Options(folder, "Quest-Enrol")));
            Assert.IsFalse(first.IsEnrolled);
            var wrong = Assert.Throws<AggregateException>(() => first.EnrollAsync("ZZZZZZZZ").Wait());
            Assert.AreEqual("enrollment_code_invalid", ((HeadsetException)wrong.InnerException).ErrorCode);
            Assert.AreEqual(400, ((HeadsetException)wrong.InnerException).StatusCode);

            Wait.Done(first.EnrollAsync(staff.EnrollmentCode().ToLowerInvariant()));
            Assert.IsTrue(first.IsEnrolled);
            var device = staff.Device(first.DeviceId);
            Assert.AreEqual("Quest-Enrol", device["name"]);
            Assert.AreEqual("quest", device["type"]);

            var again = Track(new HeadsetClient(staff.Options(folder, "Quest-Enrol")));
            Assert.IsTrue(again.IsEnrolled, "a new client on the same folder is enrolled");
            Assert.AreEqual(first.DeviceId, again.DeviceId);
        }

        [UnityTest]
        public IEnumerator HeartbeatsAtTheServersIntervalWithBatteryAndAppVersion()
        {
            var client = Track(staff.Enrolled("Quest-Heartbeat"));
            var events = new Events(client);
            client.Start();
            yield return Wait.Until(() => events.Connection.Contains(true), "ConnectionChanged(true)");
            Assert.AreEqual(TimeSpan.FromMilliseconds(staff.HeartbeatIntervalMs), client.HeartbeatInterval, "the server's interval");
            yield return Wait.Until(() => (staff.Device(client.DeviceId)["battery_percent"] as long?) == 77, "battery in the console");
            var device = staff.Device(client.DeviceId);
            Assert.AreEqual("test-1.2.3", device["app_version"]);
            Assert.IsTrue(staff.MainThread.Reads > 0, "the battery was read");
            Assert.AreEqual(0, staff.MainThread.Violations, "the battery is read on the main thread only");
            Assert.AreEqual("waiting", device["status"]);
        }

        [UnityTest]
        public IEnumerator PlaysASessionStartedInTheConsole_ProgressThenFinish()
        {
            var client = Track(staff.Enrolled("Quest-Play"));
            var events = new Events(client);
            client.Start();
            yield return Wait.Until(() => client.IsConnected, "connected");
            var sessionId = staff.StartSession(client.DeviceId, "Анна");

            yield return events.UntilAssigned(sessionId);
            var session = events.AssignedOf(sessionId);
            Assert.AreEqual("Анна", session.VrUserName);
            Assert.AreEqual("Пожарная безопасность", session.ScenarioName);
            Assert.AreEqual("Модуль 1", session.ModuleName);
            Assert.AreEqual("Уровень 2", session.LevelName);
            Assert.AreEqual(2, session.LevelNumber);
            Assert.AreEqual(3, session.MaxTasks);
            Assert.AreEqual("Ночь", session.SelectedOptions.Single().Name);
            Assert.AreEqual(staff.OptionId, session.SelectedOptions.Single().Id);
            Assert.AreEqual(staff.LevelId, session.LevelId, "the level to load, by id");
            Assert.AreEqual(36, (session.ScenarioId ?? "").Length, "the scenario's id");
            Assert.AreEqual(36, (session.ModuleId ?? "").Length, "the module's id");
            Assert.IsTrue(session.LevelRevision >= 1, "the level's revision");
            Assert.AreEqual("slide", session.MovementType);
            Assert.AreEqual(sessionId, client.CurrentSession.Id);

            Wait.Done(client.ReportProgressAsync(1, new TaskReport(1, TaskResult.Passed) { Key = "extinguisher", Score = 95, DurationMs = 1200 }));
            Assert.IsTrue(Wait.Result(client.FlushAsync(Wait.Long)));
            Assert.AreEqual(1L, staff.Session(sessionId)["completed_tasks"], "the console sees the progress");
            Assert.AreEqual("active", staff.Session(sessionId)["status"]);

            Wait.Done(client.ReportProgressAsync(2, new TaskReport(2, TaskResult.Passed)));
            Wait.Done(client.FinishAsync(true, 3, new[] { new TaskReport(3, TaskResult.Failed) { Score = 40 } }));
            yield return events.UntilEnded(sessionId);
            var end = events.EndedOf(sessionId);
            Assert.AreEqual(SessionEndReason.Finished, end.Reason);
            Assert.IsNull(client.CurrentSession);
            Assert.IsTrue(Wait.Result(client.FlushAsync(Wait.Long)));
            Assert.AreEqual(0, client.PendingReports);

            var result = staff.Session(sessionId);
            Assert.AreEqual("completed", result["status"]);
            Assert.AreEqual(true, result["success"]);
            Assert.AreEqual(3L, result["completed_tasks"]);
            var tasks = List(result, "tasks").Cast<Dictionary<string, object>>().ToList();
            Assert.AreEqual("1,2,3", string.Join(",", tasks.Select(t => t["number"])));
            Assert.AreEqual("extinguisher", tasks[0]["key"]);
            Assert.AreEqual("failed", tasks[2]["result"]);
            Assert.AreEqual(1, events.Assigned.Count(s => s.Id == sessionId), "assigned once, not again while the finish was on its way");
        }

        [UnityTest]
        public IEnumerator ACancelFromTheConsoleEndsTheSession()
        {
            var client = Track(staff.Enrolled("Pico-Cancel"));
            var events = new Events(client);
            client.Start();
            yield return Wait.Until(() => client.IsConnected, "connected");
            var sessionId = staff.StartSession(client.DeviceId, "Борис");
            yield return events.UntilAssigned(sessionId);

            staff.Cancel(sessionId);
            yield return events.UntilEnded(sessionId);
            var end = events.EndedOf(sessionId);
            Assert.AreEqual(SessionEndReason.Cancelled, end.Reason, "the heartbeat says why");
            Assert.IsNull(client.CurrentSession, "nothing to play");
            Assert.Throws<InvalidOperationException>(() => client.ReportProgressAsync(1));
            Assert.AreEqual("cancelled", staff.Session(sessionId)["status"]);
        }

        [UnityTest]
        public IEnumerator AReportRefusedBecauseTheConsoleCancelledEndsTheSessionWithTheReason()
        {
            var network = new CuttableNetwork();
            var client = Track(staff.Enrolled("Pico-Late", network));
            var events = new Events(client);
            client.Start();
            yield return Wait.Until(() => client.IsConnected, "connected");
            var sessionId = staff.StartSession(client.DeviceId, "Вера");
            yield return events.UntilAssigned(sessionId);

            network.Cut(); // the cancel happens while this headset hears nothing
            staff.Cancel(sessionId);
            Wait.Done(client.ReportProgressAsync(1));
            yield return Wait.Until(() => events.Connection.LastOrDefault() == false, "ConnectionChanged(false)");
            network.Restore();
            yield return events.UntilEnded(sessionId);
            var end = events.EndedOf(sessionId);
            Assert.AreEqual(SessionEndReason.Cancelled, end.Reason, "the 409 or the heartbeat says why");
            Assert.IsTrue(Wait.Result(client.FlushAsync(Wait.Long)), "the refused report is settled, not retried for ever");
            Assert.AreEqual("cancelled", staff.Session(sessionId)["status"]);
            Assert.AreEqual(0L, staff.Session(sessionId)["completed_tasks"]);
        }

        [UnityTest]
        public IEnumerator TheServerStoppedMidSession_TheFinishWaitsOnDiskAndArrivesOnceAfterTheRestart()
        {
            var client = Track(staff.Enrolled("Quest-Restart"));
            var events = new Events(client);
            client.Start();
            yield return Wait.Until(() => client.IsConnected, "connected");
            var sessionId = staff.StartSession(client.DeviceId, "Глеб");
            yield return events.UntilAssigned(sessionId);
            Wait.Done(client.ReportProgressAsync(1, new TaskReport(1, TaskResult.Passed)));
            Assert.IsTrue(Wait.Result(client.FlushAsync(Wait.Long)));

            staff.Server("stop");
            try
            {
                Wait.Done(client.ReportProgressAsync(2, new TaskReport(2, TaskResult.Passed)));
                Wait.Done(client.FinishAsync(true, 3, new[] { new TaskReport(3, TaskResult.Passed) }));
                Assert.AreEqual(2, client.PendingReports, "both reports safe in the outbox");
                yield return Wait.Until(() => events.Connection.LastOrDefault() == false, "ConnectionChanged(false)");
                Assert.IsFalse(Wait.Result(client.FlushAsync(TimeSpan.FromMilliseconds(300))), "nothing delivered while the server is down");
            }
            finally { staff.Server("start"); }

            Assert.IsTrue(Wait.Result(client.FlushAsync(Wait.Long)), "delivered after the restart");
            yield return Wait.Until(() => events.Connection.LastOrDefault(), "ConnectionChanged(true) again");
            var result = staff.Session(sessionId);
            Assert.AreEqual("completed", result["status"]);
            Assert.AreEqual(true, result["success"]);
            Assert.AreEqual(3L, result["completed_tasks"]);
            Assert.AreEqual("1,2,3", string.Join(",", List(result, "tasks").Cast<Dictionary<string, object>>().Select(t => t["number"])));
            Assert.AreEqual(1, events.Assigned.Count(s => s.Id == sessionId), "the finished session is not played again");
        }

        [UnityTest]
        public IEnumerator AClientRestartedWithAFullOutboxDeliversItOnce()
        {
            var folder = Folders.New();
            var network = new CuttableNetwork();
            var first = Track(staff.Enrolled("Quest-Crash", network, folder));
            var events = new Events(first);
            first.Start();
            yield return Wait.Until(() => first.IsConnected, "connected");
            var sessionId = staff.StartSession(first.DeviceId, "Дина");
            yield return events.UntilAssigned(sessionId);

            network.Cut();
            for (var task = 1; task <= 3; task++)
                Wait.Done(first.ReportProgressAsync(task, new TaskReport(task, TaskResult.Passed) { Score = 70 + task }));
            Wait.Done(first.FinishAsync(false, 3));
            Assert.AreEqual(4, first.PendingReports);
            // The app dies here: nothing flushed, nothing said to the server.
            first.Dispose();
            clients.Remove(first);
            Assert.AreEqual(4, Directory.GetFiles(Path.Combine(folder, "outbox"), "*.json").Length, "the reports outlive the process");

            var second = Track(new HeadsetClient(staff.Options(folder, "Quest-Crash")));
            var secondEvents = new Events(second);
            Assert.IsTrue(second.IsEnrolled);
            Assert.AreEqual(4, second.PendingReports, "the new process finds them");
            second.Start();
            Assert.IsTrue(Wait.Result(second.FlushAsync(Wait.Long)));
            yield return Wait.Until(() => second.IsConnected, "connected");

            var result = staff.Session(sessionId);
            Assert.AreEqual("completed", result["status"]);
            Assert.AreEqual(false, result["success"]);
            Assert.AreEqual(3L, result["completed_tasks"]);
            var tasks = List(result, "tasks").Cast<Dictionary<string, object>>().ToList();
            Assert.AreEqual(3, tasks.Count, "each task once");
            Assert.AreEqual(73.0, tasks[2]["score"]);
            Assert.AreEqual(0, secondEvents.Assigned.Count, "a session this app finished is not assigned again");
            Assert.AreEqual(0, Directory.GetFiles(Path.Combine(folder, "outbox"), "*.json").Length);
        }

        [UnityTest]
        public IEnumerator AHeadsetRemovedInTheConsoleIsUnenrolled()
        {
            var folder = Folders.New();
            var client = Track(staff.Enrolled("Quest-Removed", null, folder));
            var events = new Events(client);
            client.Start();
            yield return Wait.Until(() => client.IsConnected, "connected");

            staff.DeleteDevice(client.DeviceId);
            yield return Wait.Until(() => events.Unenrolled == 1, "Unenrolled");
            Assert.IsFalse(client.IsEnrolled);
            Assert.IsFalse(new HeadsetClient(staff.Options(folder, "Quest-Removed")).IsEnrolled, "the token is gone from DataPath");
            Assert.Throws<InvalidOperationException>(() => client.Start());
        }
    }
}
