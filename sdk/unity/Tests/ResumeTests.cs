using System;
using System.Collections;
using System.Collections.Generic;
using System.Linq;
using NUnit.Framework;
using UnityEngine.TestTools;

namespace Vrtc.Headset.Tests
{
    /// <summary>
    /// An app that dies mid-session and starts again, online or not, against the real server: it
    /// resumes at the next task, nothing is done twice, and the results arrive once.
    /// </summary>
    public class ResumeTests : ServerFixture
    {
        static List<Dictionary<string, object>> Tasks(Dictionary<string, object> session)
        {
            return ((List<object>)session["tasks"]).Cast<Dictionary<string, object>>().ToList();
        }

        /// <summary>
        /// A client plays task 1 (delivered), then task 2 while the network is cut, and the app dies:
        /// the server holds 1 task, the outbox 2. Returns the folder and the session.
        /// </summary>
        IEnumerator CrashAfterTwoTasks(string name, string[] result)
        {
            var folder = Folders.New();
            var network = new CuttableNetwork();
            var first = staff.Enrolled(name, network, folder);
            var events = new Events(first);
            first.Start();
            yield return Wait.Until(() => first.IsConnected, "connected");
            var sessionId = staff.StartSession(first.DeviceId, "Ева");
            yield return events.UntilAssigned(sessionId);
            Wait.Done(first.ReportProgressAsync(1, new TaskReport(1, TaskResult.Passed)));
            Assert.IsTrue(Wait.Result(first.FlushAsync(Wait.Long)));
            network.Cut();
            Wait.Done(first.ReportProgressAsync(2, new TaskReport(2, TaskResult.Passed) { Score = 82 }));
            Assert.AreEqual(2, first.CurrentSession.CompletedTasks, "counts what the app reported");
            first.Dispose(); // the app dies: the report of task 2 is on disk, not delivered
            Assert.AreEqual(1L, staff.Session(sessionId)["completed_tasks"], "the server holds task 1 only");
            result[0] = folder;
            result[1] = sessionId;
        }

        [UnityTest]
        public IEnumerator ARestartedAppResumesAfterTheTasksStillInTheOutbox_Online()
        {
            var crashed = new string[2];
            yield return CrashAfterTwoTasks("Quest-Resume", crashed);
            var sessionId = crashed[1];

            var second = Track(new HeadsetClient(staff.Options(crashed[0], "Quest-Resume")));
            Assert.IsNotNull(second.CurrentSession, "the session is known before any heartbeat");
            Assert.AreEqual(sessionId, second.CurrentSession.Id);
            Assert.AreEqual(2, second.CurrentSession.CompletedTasks, "task 2, still in the outbox, counts");
            var events = new Events(second);
            second.Start();
            yield return events.UntilAssigned(sessionId);
            Assert.AreEqual(2, events.AssignedOf(sessionId).CompletedTasks, "SessionAssigned says: resume at task 3");
            Assert.AreEqual(staff.LevelId, events.AssignedOf(sessionId).LevelId);
            yield return Wait.Until(() => second.PendingReports == 0, "the outbox drained");
            yield return Wait.Until(() => second.IsConnected, "connected");
            Assert.AreEqual(2, second.CurrentSession.CompletedTasks, "the server's count agrees now");

            Wait.Done(second.FinishAsync(true, 3, new[] { new TaskReport(3, TaskResult.Passed) }));
            Assert.IsTrue(Wait.Result(second.FlushAsync(Wait.Long)));
            var result = staff.Session(sessionId);
            Assert.AreEqual("completed", result["status"]);
            Assert.AreEqual(3L, result["completed_tasks"]);
            Assert.AreEqual("1,2,3", string.Join(",", Tasks(result).Select(t => t["number"])), "each task once");
            Assert.AreEqual(82.0, Tasks(result)[1]["score"]);
            Assert.AreEqual(1, events.Assigned.Count(s => s.Id == sessionId), "announced once");
        }

        [UnityTest]
        public IEnumerator ARestartedAppResumesOfflineAndItsResultsArriveLate()
        {
            var crashed = new string[2];
            yield return CrashAfterTwoTasks("Pico-Offline", crashed);
            var sessionId = crashed[1];

            var network = new CuttableNetwork();
            network.Cut(); // the app starts again with no network at all
            var second = Track(new HeadsetClient(staff.Options(crashed[0], "Pico-Offline", network)));
            var events = new Events(second);
            second.Start();
            yield return events.UntilAssigned(sessionId);
            Assert.AreEqual(2, events.AssignedOf(sessionId).CompletedTasks, "offline too: resume at task 3");
            Assert.AreEqual("Ева", second.CurrentSession.VrUserName);
            Assert.AreEqual(staff.LevelId, second.CurrentSession.LevelId, "what to load is known offline");

            Wait.Done(second.ReportProgressAsync(3, new TaskReport(3, TaskResult.Failed)));
            Wait.Done(second.FinishAsync(false, 3));
            Assert.AreEqual(3, second.PendingReports, "task 2, task 3 and the finish wait");
            yield return events.UntilEnded(sessionId);
            Assert.AreEqual(SessionEndReason.Finished, events.EndedOf(sessionId).Reason);

            network.Restore();
            Assert.IsTrue(Wait.Result(second.FlushAsync(Wait.Long)), "delivered once the network is back");
            var result = staff.Session(sessionId);
            Assert.AreEqual("completed", result["status"]);
            Assert.AreEqual(false, result["success"]);
            Assert.AreEqual("1,2,3", string.Join(",", Tasks(result).Select(t => t["number"])), "each task once");
            Assert.AreEqual(1, events.Assigned.Count, "nothing played twice");
        }

        [UnityTest]
        public IEnumerator TheBatteryIsReadOnTheMainThreadBeforeEachHeartbeat()
        {
            var level = 64;
            var guard = new MainThreadGuard();
            var options = staff.Options(Folders.New(), "Quest-Battery");
            options.BatteryPercent = () => { guard.Check("get_batteryLevel"); return level; };
            var client = Track(new HeadsetClient(options));
            Wait.Done(client.EnrollAsync(staff.EnrollmentCode()));
            client.Start();
            yield return Wait.Until(() => (staff.Device(client.DeviceId)["battery_percent"] as long?) == 64, "64 % in the console");
            level = 31; // the headset discharges: the next readings, on the main thread, say so
            yield return Wait.Until(() => (staff.Device(client.DeviceId)["battery_percent"] as long?) == 31, "31 % in the console");
            Assert.AreEqual(0, guard.Violations, "never read off the main thread");
        }
    }
}
