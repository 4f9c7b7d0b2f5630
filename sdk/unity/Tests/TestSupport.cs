using System;
using System.Collections;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net;
using System.Net.Http;
using System.Net.Http.Headers;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NUnit.Framework;

namespace Vrtc.Headset.Tests
{
    /// <summary>
    /// Waiting for what a user would notice: a condition, checked once a frame; never a fixed
    /// sleep. The waits are coroutines (`yield return Wait.Until(…)` in a [UnityTest]): the main
    /// thread gets its frames meanwhile, so events posted to it arrive, as in Unity. A task is
    /// waited for by blocking: the SDK's tasks never need the main thread to complete.
    /// </summary>
    internal static class Wait
    {
        public static readonly TimeSpan Long = TimeSpan.FromSeconds(20);

        public static IEnumerator Until(Func<bool> condition, string what, TimeSpan? timeout = null)
        {
            var deadline = DateTime.UtcNow + (timeout ?? Long);
            while (!condition())
            {
                if (DateTime.UtcNow > deadline) Assert.Fail("timed out waiting for " + what);
                yield return null;
            }
        }

        public static T Result<T>(Task<T> task)
        {
            if (!task.Wait(Long)) Assert.Fail("a task did not complete in " + Long.TotalSeconds + " s");
            return task.Result;
        }

        public static void Done(Task task)
        {
            if (!task.Wait(Long)) Assert.Fail("a task did not complete in " + Long.TotalSeconds + " s");
        }
    }

    /// <summary>
    /// Unity's rule, imitated: UnityEngine's APIs (SystemInfo.batteryLevel, …) throw when called off
    /// the main thread. A reading made by <see cref="Battery"/> throws the same way, and counts it.
    /// </summary>
    internal sealed class MainThreadGuard
    {
        readonly int mainThread = Thread.CurrentThread.ManagedThreadId;
        public int Violations;
        public int Reads;

        public Func<int?> Battery(int percent)
        {
            return () =>
            {
                Check("get_batteryLevel");
                Interlocked.Increment(ref Reads);
                return percent;
            };
        }

        public void Check(string what)
        {
            if (Thread.CurrentThread.ManagedThreadId == mainThread) return;
            Interlocked.Increment(ref Violations);
            throw new InvalidOperationException(what + " can only be called from the main thread.");
        }
    }

    /// <summary>Every event a client raised, in order; each must arrive on the thread that created the client.</summary>
    internal sealed class Events
    {
        public readonly ConcurrentQueue<SessionInfo> Assigned = new ConcurrentQueue<SessionInfo>();
        public readonly ConcurrentQueue<SessionEndInfo> Ended = new ConcurrentQueue<SessionEndInfo>();
        public readonly ConcurrentQueue<bool> Connection = new ConcurrentQueue<bool>();
        public int Unenrolled;
        readonly MainThreadGuard guard = new MainThreadGuard();

        public Events(HeadsetClient client)
        {
            client.SessionAssigned += session => { OnMain(); Assigned.Enqueue(session); };
            client.SessionEnded += end => { OnMain(); Ended.Enqueue(end); };
            client.ConnectionChanged += online => { OnMain(); Connection.Enqueue(online); };
            client.Unenrolled += () => { OnMain(); Interlocked.Increment(ref Unenrolled); };
        }

        void OnMain()
        {
            try { guard.Check("an event handler touching the scene"); }
            catch (InvalidOperationException) { }
        }

        /// <summary>Events raised off the main thread (none when the client was made on it).</summary>
        public int OffMainThread { get { return guard.Violations; } }

        public SessionInfo AssignedOf(string sessionId) { return Assigned.LastOrDefault(s => s.Id == sessionId); }
        public SessionEndInfo EndedOf(string sessionId) { return Ended.LastOrDefault(e => e.SessionId == sessionId); }

        public IEnumerator UntilAssigned(string sessionId)
        {
            yield return Wait.Until(() => AssignedOf(sessionId) != null, "SessionAssigned " + sessionId);
            Assert.AreEqual(0, OffMainThread, "events raised off the main thread");
        }

        public IEnumerator UntilEnded(string sessionId)
        {
            yield return Wait.Until(() => EndedOf(sessionId) != null, "SessionEnded " + sessionId);
            Assert.AreEqual(0, OffMainThread, "events raised off the main thread");
        }
    }

    /// <summary>A fresh folder for a client's DataPath.</summary>
    internal static class Folders
    {
        public static string New()
        {
            var path = Path.Combine(Path.GetTempPath(), "vrtc-sdk-test-" + Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(path);
            return path;
        }
    }

    /// <summary>
    /// The network between a client and the server, under the test's control: Cut() makes every
    /// request fail as an unreachable server does; Restore() lets them through again.
    /// </summary>
    internal sealed class CuttableNetwork : DelegatingHandler
    {
        volatile bool cut;
        public int Attempts;

        public CuttableNetwork() : base(new HttpClientHandler()) { }

        public void Cut() { cut = true; }
        public void Restore() { cut = false; }

        protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancel)
        {
            Interlocked.Increment(ref Attempts);
            if (cut) throw new HttpRequestException("network is unreachable (cut by the test)");
            var response = await base.SendAsync(request, cancel).ConfigureAwait(false);
            // A cut loses the answers of calls already under way too (a held push call's, which
            // the server answers the moment the console cancels), as a dropped Wi-Fi does.
            if (cut)
            {
                response.Dispose();
                throw new HttpRequestException("network is unreachable (cut by the test)");
            }
            return response;
        }
    }

    /// <summary>A request as a fake server saw it.</summary>
    internal sealed class SeenRequest
    {
        public string Path;
        public string IdempotencyKey;
        public Dictionary<string, object> Body;
        public DateTime At;
        /// <summary>False when the fake network failed it: the server never saw it.</summary>
        public bool Answered;
    }

    /// <summary>A server in a delegate: answers each request from <c>Answer</c>, records every request.</summary>
    internal sealed class FakeServer : HttpMessageHandler
    {
        public readonly ConcurrentQueue<SeenRequest> Seen = new ConcurrentQueue<SeenRequest>();
        public Func<SeenRequest, HttpResponseMessage> Answer;

        public static HttpResponseMessage Json(int status, object body)
        {
            return new HttpResponseMessage((HttpStatusCode)status)
            {
                Content = new StringContent(Vrtc.Headset.Json.Write(body), Encoding.UTF8, "application/json"),
            };
        }

        protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancel)
        {
            // No push channel here, as on a server older than it: the client follows heartbeats alone.
            if (request.RequestUri.AbsolutePath == HeadsetClient.EventsPath)
                return Json(404, new Dictionary<string, object> { { "error", "not_found" }, { "message", "Route not found" } });
            IEnumerable<string> keys;
            var seen = new SeenRequest
            {
                Path = request.RequestUri.AbsolutePath,
                IdempotencyKey = request.Headers.TryGetValues("Idempotency-Key", out keys) ? string.Join(",", keys) : null,
                Body = request.Content == null ? null : (Dictionary<string, object>)Vrtc.Headset.Json.Parse(await request.Content.ReadAsStringAsync().ConfigureAwait(false)),
                At = DateTime.UtcNow,
            };
            Seen.Enqueue(seen);
            var answer = Answer(seen);
            seen.Answered = true;
            return answer;
        }
    }

    /// <summary>
    /// The set-up of the tests against the real server: the staff of the harness, and every client a
    /// test made (through Track) stopped and disposed after it.
    /// </summary>
    public abstract class ServerFixture
    {
        internal Staff staff;
        internal readonly List<HeadsetClient> clients = new List<HeadsetClient>();

        [SetUp]
        public void SetUp() { staff = new Staff(); }

        [TearDown]
        public void TearDown()
        {
            foreach (var client in clients)
            {
                Wait.Done(client.StopAsync());
                client.Dispose();
            }
        }

        internal HeadsetClient Track(HeadsetClient client)
        {
            clients.Add(client);
            return client;
        }
    }

    /// <summary>
    /// What the harness (scripts/sdk-test.mjs) hands the tests against the real server: its URL, a
    /// staff token of an organisation with a granted level, and a control URL that stops and
    /// starts the server. Without them (e.g. in the Unity Test Runner) those tests are ignored.
    /// </summary>
    internal sealed class Staff
    {
        public readonly string ServerUrl = Environment.GetEnvironmentVariable("SERVER_URL");
        readonly string controlUrl = Environment.GetEnvironmentVariable("CONTROL_URL");
        readonly string token = Environment.GetEnvironmentVariable("STAFF_TOKEN");
        public readonly string LevelId = Environment.GetEnvironmentVariable("LEVEL_ID");
        public readonly string OptionId = Environment.GetEnvironmentVariable("OPTION_ID");
        public readonly int HeartbeatIntervalMs = int.Parse(Environment.GetEnvironmentVariable("HEARTBEAT_INTERVAL_MS") ?? "0");
        /// <summary>The battery of every client made here: read on the main thread only, or it throws.</summary>
        public readonly MainThreadGuard MainThread = new MainThreadGuard();
        readonly HttpClient http = new HttpClient { Timeout = Timeout.InfiniteTimeSpan };

        public Staff()
        {
            if (string.IsNullOrEmpty(ServerUrl) || string.IsNullOrEmpty(token))
                Assert.Ignore("needs the real server: run `npm test` (SERVER_URL, STAFF_TOKEN)");
        }

        public HeadsetOptions Options(string dataPath, string name, HttpMessageHandler handler = null)
        {
            return new HeadsetOptions
            {
                ServerUrl = ServerUrl,
                DataPath = dataPath,
                DeviceName = name,
                DeviceType = "quest",
                AppVersion = "test-1.2.3",
                BatteryPercent = MainThread.Battery(77),
                HttpHandler = handler,
                RetryBaseDelay = TimeSpan.FromMilliseconds(100),
                RetryMaxDelay = TimeSpan.FromMilliseconds(1000),
                RequestTimeout = TimeSpan.FromSeconds(5),
            };
        }

        public Dictionary<string, object> Call(string method, string path, object body, int expected)
        {
            int status;
            var answer = Send(method, path, body, out status);
            if (status != expected) Assert.Fail(method + " " + path + ": expected " + expected + " but got " + status + " " + Vrtc.Headset.Json.Write(answer));
            return answer;
        }

        public Dictionary<string, object> Send(string method, string path, object body, out int status)
        {
            var request = new HttpRequestMessage(new HttpMethod(method), ServerUrl + path);
            request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", token);
            if (body != null) request.Content = new StringContent(Vrtc.Headset.Json.Write(body), Encoding.UTF8, "application/json");
            var response = Wait.Result(http.SendAsync(request));
            status = (int)response.StatusCode;
            var text = Wait.Result(response.Content.ReadAsStringAsync());
            return text.Length == 0 ? null : Vrtc.Headset.Json.Parse(text) as Dictionary<string, object>;
        }

        public string EnrollmentCode()
        {
            return (string)Call("POST", "/v1/devices/enrollment-code", null, 200)["code"];
        }

        /// <summary>A new client on a new folder, enrolled with the console's code.</summary>
        public HeadsetClient Enrolled(string name, HttpMessageHandler handler = null, string dataPath = null)
        {
            var client = new HeadsetClient(Options(dataPath ?? Folders.New(), name, handler));
            Wait.Done(client.EnrollAsync(EnrollmentCode()));
            return client;
        }

        /// <summary>Starts a session from the console, as staff do (the headset must have been seen).</summary>
        public string StartSession(string deviceId, string vrUserName)
        {
            var body = new Dictionary<string, object>
            {
                { "device_id", deviceId },
                { "level_id", LevelId },
                { "vr_user_name", vrUserName },
                { "selected_options", new List<object> { OptionId } },
            };
            return (string)Call("POST", "/v1/sessions/start", body, 201)["id"];
        }

        public Dictionary<string, object> Session(string id)
        {
            return Call("GET", "/v1/sessions/" + id, null, 200);
        }

        public Dictionary<string, object> Device(string id)
        {
            return Call("GET", "/v1/devices/" + id, null, 200);
        }

        public void Cancel(string sessionId) { Call("POST", "/v1/sessions/" + sessionId + "/cancel", null, 200); }
        public void DeleteDevice(string deviceId) { Call("DELETE", "/v1/devices/" + deviceId, null, 200); }

        /// <summary>
        /// Bound on starting the server process again (node, PGlite opening its files, migrations
        /// checked): seconds on a quiet machine, much longer on a loaded one. A process start, not
        /// the SDK's behaviour, so it has its own limit.
        /// </summary>
        static readonly TimeSpan ServerStartLimit = TimeSpan.FromSeconds(120);

        /// <summary>Stops ("stop") or starts again ("start") the server process; returns once done.</summary>
        public void Server(string action)
        {
            var call = http.PostAsync(controlUrl + "/" + action, new StringContent(""));
            if (!call.Wait(ServerStartLimit)) Assert.Fail("the server did not " + action + " within " + ServerStartLimit.TotalSeconds + " s");
            var response = call.Result;
            if (!response.IsSuccessStatusCode) Assert.Fail("the harness could not " + action + " the server: " + Wait.Result(response.Content.ReadAsStringAsync()));
        }
    }
}
