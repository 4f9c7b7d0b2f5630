using System;
using System.Collections.Generic;
using System.IO;
using System.Text;

namespace Vrtc.Headset
{
    /// <summary>
    /// session.json in DataPath: the session this app is playing, as the server launched it, with
    /// what the app did since (the last seq it gave a report, the most tasks it reported). A
    /// restarted app, online or not, resumes it from here: <see cref="HeadsetClient.CurrentSession"/>
    /// at once, and SessionAssigned when the client starts. Gone once the session ends for the app.
    /// </summary>
    internal sealed class SessionRecord
    {
        /// <summary>The heartbeat's `session` object, as received.</summary>
        public Dictionary<string, object> Launch;
        /// <summary>The heartbeat's movement_type when the session's own has none (an older server).</summary>
        public string MovementType;
        public long LastSeq;
        public int ReportedTasks;

        public static string PathIn(string dataPath) { return Path.Combine(dataPath, "session.json"); }

        public static SessionRecord Load(string dataPath, Action<string> log)
        {
            var path = PathIn(dataPath);
            if (!File.Exists(path)) return null;
            try
            {
                var o = JsonFields.AsObject(Json.Parse(File.ReadAllText(path, Encoding.UTF8)));
                var record = new SessionRecord
                {
                    Launch = JsonFields.AsObject(JsonFields.Get(o, "launch")),
                    MovementType = JsonFields.String(o, "movement_type"),
                    LastSeq = JsonFields.Long(o, "last_seq") ?? 0,
                    ReportedTasks = (int)(JsonFields.Long(o, "reported_tasks") ?? 0),
                };
                if (record.Launch == null || JsonFields.String(record.Launch, "id") == null) throw new FormatException("no session");
                return record;
            }
            catch (Exception error)
            {
                log("session.json is unreadable (" + error.Message + "): the next heartbeat tells the session");
                return null;
            }
        }

        public string Id { get { return JsonFields.String(Launch, "id"); } }

        /// <summary>A snapshot to write later (Launch is never changed once received, so it is shared).</summary>
        public SessionRecord Copy()
        {
            return new SessionRecord { Launch = Launch, MovementType = MovementType, LastSeq = LastSeq, ReportedTasks = ReportedTasks };
        }

        /// <summary>The file's text, made under the client's lock; written by the disk writer.</summary>
        public string ToJson()
        {
            return Json.Write(new Dictionary<string, object>
            {
                { "launch", Launch },
                { "movement_type", MovementType },
                { "last_seq", LastSeq },
                { "reported_tasks", ReportedTasks },
            });
        }

        public static void Write(string dataPath, string json) { DurableFile.Write(PathIn(dataPath), json); }

        public static void Delete(string dataPath)
        {
            var path = PathIn(dataPath);
            if (File.Exists(path)) File.Delete(path);
        }
    }
}
