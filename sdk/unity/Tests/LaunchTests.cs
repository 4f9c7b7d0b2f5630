using System;
using System.Collections;
using System.Collections.Generic;
using System.Net.Http;
using System.Text;
using NUnit.Framework;
using UnityEngine.TestTools;

namespace Vrtc.Headset.Tests
{
    /// <summary>
    /// A learner's launch from an LMS (docs/lms.md), against the real server: the launch page asks
    /// for a PIN with the package key (scripts/sdk-test.mjs exports a package for the level), the
    /// headset enters it with ClaimLaunchAsync, plays the session, and the launch shows the result.
    /// </summary>
    public class LaunchTests
    {
        Staff staff;
        HeadsetClient client;
        readonly string packageKey = Environment.GetEnvironmentVariable("PACKAGE_KEY");
        readonly HttpClient http = new HttpClient();

        [SetUp]
        public void SetUp()
        {
            staff = new Staff();
            if (string.IsNullOrEmpty(packageKey)) Assert.Ignore("needs PACKAGE_KEY: run `node scripts/sdk-test.mjs`");
        }

        [TearDown]
        public void TearDown()
        {
            if (client == null) return;
            Wait.Done(client.StopAsync());
            client.Dispose();
            client = null;
        }

        /// <summary>What the launch page sends, from the LMS's origin, with no console credentials.</summary>
        Dictionary<string, object> Launch(string learnerId, string learnerName)
        {
            var body = new Dictionary<string, object>
            {
                { "package_key", packageKey },
                { "learner_id", learnerId },
                { "learner_name", learnerName },
            };
            var request = new HttpRequestMessage(HttpMethod.Post, staff.ServerUrl + "/v1/lms/launches")
            {
                Content = new StringContent(Vrtc.Headset.Json.Write(body), Encoding.UTF8, "application/json"),
            };
            request.Headers.Add("Origin", "https://lms.example.com");
            return Answer(request, 201);
        }

        /// <summary>The launch as its page follows it, with the launch token only.</summary>
        Dictionary<string, object> Follow(string launchToken)
        {
            var request = new HttpRequestMessage(HttpMethod.Get, staff.ServerUrl + "/v1/lms/launches/current");
            request.Headers.Add("x-lms-launch-token", launchToken);
            request.Headers.Add("Origin", "https://lms.example.com");
            return Answer(request, 200);
        }

        Dictionary<string, object> Answer(HttpRequestMessage request, int expected)
        {
            var response = Wait.Result(http.SendAsync(request));
            var text = Wait.Result(response.Content.ReadAsStringAsync());
            if ((int)response.StatusCode != expected)
                Assert.Fail(request.Method + " " + request.RequestUri + ": expected " + expected + " but got " + (int)response.StatusCode + " " + text);
            return (Dictionary<string, object>)Vrtc.Headset.Json.Parse(text);
        }

        static string ErrorOf(Action claim)
        {
            var error = Assert.Throws<AggregateException>(() => claim());
            return ((HeadsetException)error.InnerException).ErrorCode;
        }

        /// <summary>A six-digit PIN other than the given one.</summary>
        static string Other(string pin)
        {
            return ((int.Parse(pin) + 1) % 1000000).ToString("D6");
        }

        [UnityTest]
        public IEnumerator ClaimsTheLmsPinPlaysTheLearnersSessionAndTheLaunchGetsTheResult()
        {
            client = staff.Enrolled("Quest-Lms");
            var events = new Events(client);
            Assert.Throws<ArgumentException>(() => client.ClaimLaunchAsync("12345"), "five digits are no PIN");
            client.Start();
            yield return Wait.Until(() => client.IsConnected, "connected");

            var launch = Launch("lms-learner-7", "Мария Иванова");
            var pin = (string)launch["pin"];
            var token = (string)launch["launch_token"];
            Assert.AreEqual(6, pin.Length);
            Assert.AreEqual("waiting", launch["state"]);
            Assert.AreEqual("launch_pin_invalid", ErrorOf(() => client.ClaimLaunchAsync(Other(pin)).Wait()), "a wrong PIN");

            var claim = Wait.Result(client.ClaimLaunchAsync(" " + pin + " "));
            Assert.AreEqual(36, (claim.SessionId ?? "").Length, "the session's id");
            Assert.AreEqual("Мария Иванова", claim.VrUserName, "the learner, as the LMS names them");
            Assert.AreEqual("Уровень 2", claim.LevelName);
            yield return events.UntilAssigned(claim.SessionId);
            var session = events.AssignedOf(claim.SessionId);
            Assert.AreEqual(staff.LevelId, session.LevelId, "the package's level");
            Assert.AreEqual("Мария Иванова", session.VrUserName);
            Assert.AreEqual("running", Follow(token)["state"]);
            Assert.AreEqual("active", staff.Session(claim.SessionId)["status"], "the console sees the session");

            Wait.Done(client.FinishAsync(true, 3));
            yield return events.UntilEnded(claim.SessionId);
            Assert.IsTrue(Wait.Result(client.FlushAsync(Wait.Long)));
            var polled = DateTime.MinValue;
            Dictionary<string, object> followed = null;
            yield return Wait.Until(() =>
            {
                if (DateTime.UtcNow - polled < TimeSpan.FromMilliseconds(200)) return false;
                polled = DateTime.UtcNow;
                followed = Follow(token);
                return (string)followed["state"] == "ended";
            }, "the launch ended");
            var result = (Dictionary<string, object>)followed["result"];
            Assert.AreEqual("completed", result["status"]);
            Assert.AreEqual(true, result["success"]);
            Assert.AreEqual(3L, result["completed_tasks"]);
            Assert.AreEqual(100L, result["score"]);

            Assert.AreEqual("launch_pin_invalid", ErrorOf(() => client.ClaimLaunchAsync(pin).Wait()), "a PIN works once");
            var seenAgain = Launch("lms-learner-7", "Мария Иванова");
            var second = Wait.Result(client.ClaimLaunchAsync((string)seenAgain["pin"]));
            Assert.AreEqual(staff.Session(claim.SessionId)["vr_user_id"], staff.Session(second.SessionId)["vr_user_id"], "the learner seen again is the same VR user");
            yield return events.UntilAssigned(second.SessionId);
        }
    }
}
