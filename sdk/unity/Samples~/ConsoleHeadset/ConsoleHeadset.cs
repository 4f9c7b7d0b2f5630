// One headset in a terminal, with no Unity: enrols with the console's code, heartbeats, plays each
// session the console starts on it task by task, and finishes it. Try it against `npm run demo`:
//
//   mcs -langversion:7.2 -r:System.Net.Http.dll -out:ConsoleHeadset.exe \
//       $(find sdk/unity/Runtime -name '*.cs') sdk/unity/Samples~/ConsoleHeadset/ConsoleHeadset.cs
//   mono ConsoleHeadset.exe --server http://127.0.0.1:8080 --code ABCD1234 --name Console-1
//
// Its state (token, outbox) is in --data (default ./console-headset-data): run it again without
// --code and it is still enrolled; kill it mid-session and its reports leave on the next run.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using Vrtc.Headset;

namespace Vrtc.Headset.Samples
{
    public static class ConsoleHeadset
    {
        public static int Main(string[] args)
        {
            var flags = new Dictionary<string, string>();
            for (var i = 0; i + 1 < args.Length; i += 2) flags[args[i].TrimStart('-')] = args[i + 1];
            string value;
            var server = flags.TryGetValue("server", out value) ? value : "http://127.0.0.1:8080";
            var pace = TimeSpan.FromMilliseconds(flags.TryGetValue("pace", out value) ? int.Parse(value) : 2000);
            var client = new HeadsetClient(new HeadsetOptions
            {
                ServerUrl = server,
                DataPath = flags.TryGetValue("data", out value) ? value : "console-headset-data",
                DeviceName = flags.TryGetValue("name", out value) ? value : "Console-1",
                DeviceType = flags.TryGetValue("type", out value) ? value : "quest",
                AppVersion = "console-sample-0.1.0",
                BatteryPercent = () => 90,
                Log = line => Say("sdk: " + line),
            });

            if (flags.TryGetValue("code", out value) && (!client.IsEnrolled || flags.ContainsKey("reenrol")))
            {
                try
                {
                    client.EnrollAsync(value).GetAwaiter().GetResult();
                    Say("enrolled as device " + client.DeviceId);
                }
                catch (HeadsetException error)
                {
                    Say("enrolment refused: " + error.ErrorCode + ": " + error.Message);
                    return 1;
                }
            }
            if (!client.IsEnrolled)
            {
                Say("not enrolled: pass --code with the code from Headsets → Add headset");
                return 1;
            }

            var stop = new CancellationTokenSource();
            Console.CancelKeyPress += (sender, e) => { e.Cancel = true; stop.Cancel(); };
            Task playing = Task.FromResult(true);
            CancellationTokenSource session = null;

            client.ConnectionChanged += online => Say(online ? "connected" : "connection lost: reports wait in the outbox");
            client.Unenrolled += () => { Say("removed in the console"); stop.Cancel(); };
            client.SessionEnded += end =>
            {
                Say("session " + end.SessionId.Substring(0, 8) + " ended: " + end.Reason);
                if (session != null) session.Cancel();
            };
            client.SessionAssigned += info =>
            {
                Say("session " + info.Id.Substring(0, 8) + " started: " + info.ScenarioName + " / " + info.ModuleName +
                    " / " + info.LevelName + " (" + info.MaxTasks + " tasks) for " + info.VrUserName);
                session = CancellationTokenSource.CreateLinkedTokenSource(stop.Token);
                playing = Play(client, info, pace, session.Token);
            };

            client.Start();
            Say("heartbeating to " + server + "; Ctrl+C to stop");
            try { Task.Delay(Timeout.Infinite, stop.Token).Wait(); }
            catch (AggregateException) { }
            try { playing.Wait(); } catch (AggregateException) { }
            client.StopAsync().Wait();
            var delivered = client.FlushAsync(TimeSpan.FromSeconds(3)).Result;
            Say(delivered ? "stopped, every report delivered" : "stopped; " + client.PendingReports + " report(s) wait for the next run");
            client.Dispose();
            return 0;
        }

        /// <summary>Plays the session's tasks: each takes `pace`, is reported, then the run is finished.</summary>
        static async Task Play(HeadsetClient client, SessionInfo session, TimeSpan pace, CancellationToken cancel)
        {
            var tasks = new List<TaskReport>();
            try
            {
                for (var number = session.CompletedTasks + 1; number <= session.MaxTasks; number++)
                {
                    var started = DateTime.UtcNow;
                    await Task.Delay(pace, cancel);
                    var task = new TaskReport(number, TaskResult.Passed)
                    {
                        Key = "task-" + number,
                        Name = "Task " + number,
                        Score = 80,
                        DurationMs = (int)(DateTime.UtcNow - started).TotalMilliseconds,
                    };
                    tasks.Add(task);
                    await client.ReportProgressAsync(number, task);
                    Say("task " + number + "/" + session.MaxTasks + " (" + client.PendingReports + " waiting to upload)");
                }
                await client.FinishAsync(true, session.MaxTasks, tasks);
                Say("finished: success");
            }
            catch (OperationCanceledException) { }
            catch (InvalidOperationException) { } // the session ended meanwhile
        }

        static void Say(string line)
        {
            Console.WriteLine(DateTime.Now.ToString("HH:mm:ss") + " " + line);
        }
    }
}
