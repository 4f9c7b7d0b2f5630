// `npm run bench:sdk` (bench/sdk-reports.bench.ts): what a report costs the thread that makes it
// (Unity's main thread, in a frame of 11–14 ms on a Quest), and how long until it is on disk.
// Compiled with the SDK's sources (its internals visible) and run with Mono; prints one JSON line.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Net;
using System.Net.Http;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Vrtc.Headset;

namespace Vrtc.Headset.Bench
{
    /// <summary>A server that enrols, launches a 10,000-task session and accepts every report.</summary>
    sealed class AcceptingServer : HttpMessageHandler
    {
        protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancel)
        {
            var path = request.RequestUri.AbsolutePath;
            object body;
            if (path == HeadsetClient.EnrollPath) body = new Dictionary<string, object> { { "device_id", "d1" }, { "device_token", "t1" } };
            else if (path == HeadsetClient.HeartbeatPath)
                body = new Dictionary<string, object>
                {
                    { "device_id", "d1" }, { "movement_type", "slide" }, { "heartbeat_interval_ms", 60000 },
                    { "session", new Dictionary<string, object> { { "id", "s1" }, { "max_tasks", 10000 }, { "completed_tasks", 0 }, { "started_at", "2026-01-01T10:00:00.000Z" } } },
                    { "ended_session", null }, { "server_time", DateTime.UtcNow.ToString("o") },
                };
            else body = new Dictionary<string, object> { { "id", "s1" }, { "status", "active" } };
            return Task.FromResult(new HttpResponseMessage(HttpStatusCode.OK) { Content = new StringContent(Json.Write(body), Encoding.UTF8, "application/json") });
        }
    }

    static class ReportBench
    {
        static double Ms(long ticks) { return ticks * 1000.0 / Stopwatch.Frequency; }

        static Dictionary<string, object> Figures(List<double> ms)
        {
            ms.Sort();
            Func<double, double> at = q => ms[Math.Min(ms.Count - 1, (int)Math.Ceiling(q * ms.Count) - 1)];
            return new Dictionary<string, object>
            {
                { "n", ms.Count }, { "p50", Math.Round(at(0.5), 3) }, { "p90", Math.Round(at(0.9), 3) },
                { "p99", Math.Round(at(0.99), 3) }, { "max", Math.Round(ms[ms.Count - 1], 3) },
            };
        }

        public static int Main(string[] args)
        {
            var count = args.Length > 0 ? int.Parse(args[0]) : 600;
            var frameMs = args.Length > 1 ? int.Parse(args[1]) : 11;
            var folder = Path.Combine(Path.GetTempPath(), "vrtc-sdk-bench-" + Guid.NewGuid().ToString("N"));
            var result = new Dictionary<string, object> { { "reports", count }, { "frame_ms", frameMs }, { "folder", folder } };
            var client = new HeadsetClient(new HeadsetOptions
            {
                ServerUrl = "http://bench.test", DataPath = folder, DeviceName = "Bench", DeviceType = "quest",
                HttpHandler = new AcceptingServer(), Log = line => { },
            });
            client.EnrollAsync("ABCD1234").Wait();
            var assigned = new ManualResetEventSlim();
            client.SessionAssigned += session => assigned.Set();
            client.Start();
            if (!assigned.Wait(TimeSpan.FromSeconds(10))) throw new Exception("no session");

            // Mono compiles each method at its first call (IL2CPP on a headset compiles ahead of
            // time): a few reports first, not counted, so the figures are of the calls themselves.
            const int warmUp = 20;
            for (var task = 1; task <= warmUp; task++) client.ReportProgressAsync(task).Wait();

            // The caller's thread: one report per frame, as a game reports the task that just ended.
            var caller = new List<double>();
            var durable = new List<double>();
            var pending = new List<Task>();
            for (var task = warmUp + 1; task <= warmUp + count; task++)
            {
                var started = Stopwatch.GetTimestamp();
                var call = client.ReportProgressAsync(task, new TaskReport(task, TaskResult.Passed) { Score = 90, DurationMs = 1000 });
                var returned = Stopwatch.GetTimestamp();
                caller.Add(Ms(returned - started));
                pending.Add(call.ContinueWith(done => { lock (durable) durable.Add(Ms(Stopwatch.GetTimestamp() - started)); }, TaskContinuationOptions.ExecuteSynchronously));
                Thread.Sleep(frameMs);
            }
            Task.WaitAll(pending.ToArray());
            result["caller_thread_ms"] = Figures(caller);
            result["to_durable_ms"] = Figures(durable);

            // The same write on the caller's thread, as before 0.2.0: a report file and the seq's device.json, each flushed.
            var before = new List<double>();
            var probe = Path.Combine(folder, "probe");
            Directory.CreateDirectory(probe);
            for (var i = 0; i < Math.Min(count, 200); i++)
            {
                var started = Stopwatch.GetTimestamp();
                DurableFile.Write(Path.Combine(probe, "device.json"), "{\"seq\":{\"s1\":" + i + "}}");
                DurableFile.Write(Path.Combine(probe, i.ToString("D12") + ".json"), "{\"kind\":\"progress\",\"body\":{\"completed_tasks\":" + i + "}}");
                before.Add(Ms(Stopwatch.GetTimestamp() - started));
                Thread.Sleep(frameMs);
            }
            result["synchronous_writes_ms"] = Figures(before);
            client.FlushAsync(TimeSpan.FromSeconds(30)).Wait();
            client.StopAsync().Wait();
            client.Dispose();
            Directory.Delete(folder, true);
            Console.WriteLine(Json.Write(result));
            return 0;
        }
    }
}
