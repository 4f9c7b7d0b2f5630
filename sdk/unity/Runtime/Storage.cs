using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text;
using System.Threading.Tasks;

namespace Vrtc.Headset
{
    /// <summary>Durable file writes: a reader sees the old file or the new one, never half of one.</summary>
    internal static class DurableFile
    {
        /// <summary>
        /// Writes to a temporary file, flushes it to the disk, then renames it over the target (an
        /// atomic replace on every file system the SDK runs on). Returns once the data is on disk.
        /// </summary>
        public static void Write(string path, string text)
        {
            var temp = path + ".tmp";
            var bytes = new UTF8Encoding(false).GetBytes(text);
            using (var stream = new FileStream(temp, FileMode.Create, FileAccess.Write, FileShare.None))
            {
                stream.Write(bytes, 0, bytes.Length);
                stream.Flush(true); // through the OS cache to the disk
            }
            if (File.Exists(path)) File.Replace(temp, path, null);
            else File.Move(temp, path);
        }
    }

    /// <summary>
    /// device.json in DataPath: the device's id and token, the server it belongs to, the last clock
    /// offset learnt from the server and the last progress seq per session (so a restarted app goes
    /// on counting where it stopped).
    /// </summary>
    internal sealed class DeviceState
    {
        public string DeviceId;
        public string DeviceToken;
        public string ServerUrl;
        public long ClockOffsetMs;
        public Dictionary<string, long> Seq = new Dictionary<string, long>();

        public static string PathIn(string dataPath) { return Path.Combine(dataPath, "device.json"); }

        public static DeviceState Load(string dataPath, Action<string> log)
        {
            var path = PathIn(dataPath);
            if (!File.Exists(path)) return null;
            try
            {
                var o = JsonFields.AsObject(Json.Parse(File.ReadAllText(path, Encoding.UTF8)));
                var state = new DeviceState
                {
                    DeviceId = JsonFields.String(o, "device_id"),
                    DeviceToken = JsonFields.String(o, "device_token"),
                    ServerUrl = JsonFields.String(o, "server_url"),
                    ClockOffsetMs = JsonFields.Long(o, "clock_offset_ms") ?? 0,
                };
                var seq = JsonFields.AsObject(JsonFields.Get(o, "seq"));
                if (seq != null)
                    foreach (var pair in seq)
                        if (pair.Value is long) state.Seq[pair.Key] = (long)pair.Value;
                if (string.IsNullOrEmpty(state.DeviceId) || string.IsNullOrEmpty(state.DeviceToken)) return null;
                return state;
            }
            catch (Exception error)
            {
                log("device.json is unreadable (" + error.Message + "): the headset must enrol again");
                return null;
            }
        }

        /// <summary>The file's text, made under the caller's lock; written later by the disk writer.</summary>
        public string ToJson()
        {
            var seq = new Dictionary<string, object>();
            foreach (var pair in Seq) seq[pair.Key] = pair.Value;
            return Json.Write(new Dictionary<string, object>
            {
                { "device_id", DeviceId },
                { "device_token", DeviceToken },
                { "server_url", ServerUrl },
                { "clock_offset_ms", ClockOffsetMs },
                { "seq", seq },
            });
        }

        public static void Write(string dataPath, string json) { DurableFile.Write(PathIn(dataPath), json); }

        public static void Delete(string dataPath)
        {
            var path = PathIn(dataPath);
            if (File.Exists(path)) File.Delete(path);
        }
    }

    /// <summary>A report waiting in the outbox: what to send, where, and its idempotency key.</summary>
    internal sealed class OutboxEntry
    {
        public long Number;
        /// <summary>"progress" or "finish".</summary>
        public string Kind;
        public string SessionId;
        /// <summary>Made once when the report is written, sent with every attempt.</summary>
        public string IdempotencyKey;
        public Dictionary<string, object> Body;
        public string FilePath;
        /// <summary>Failed attempts in this process (not stored: a restart starts the backoff again).</summary>
        public int Attempts;
        /// <summary>Completes once the report is on disk: nothing is sent before.</summary>
        public Task Durable;
        /// <summary>Dropped before its write ran (the headset was removed): the write is skipped.</summary>
        public bool Dropped;
    }

    /// <summary>
    /// The durable outbox: one file per report in DataPath/outbox, named by a growing number so the
    /// folder's order is the order of the reports. A report is reserved in memory by the call that
    /// makes it (its number, key and place in the order), written (temporary file, flushed,
    /// renamed) by the disk writer, sent only once written, and deleted once the server accepted
    /// it. A crash between the server's answer and the delete sends it again with the same key,
    /// which the server answers from its record: nothing counts twice.
    ///
    /// Two locks: <c>gate</c> guards the list and is held for memory work only, so a report call
    /// never waits for a disk; <c>disk</c> orders the file operations (write, delete, clear).
    /// </summary>
    internal sealed class Outbox
    {
        readonly string folder;
        readonly Action<string> log;
        readonly object gate = new object();
        readonly object disk = new object();
        readonly List<OutboxEntry> entries = new List<OutboxEntry>();
        long lastNumber;

        public Outbox(string dataPath, Action<string> log)
        {
            folder = Path.Combine(dataPath, "outbox");
            this.log = log;
            Directory.CreateDirectory(folder);
            Load();
        }

        void Load()
        {
            // A .tmp file is a write that never completed: its caller never heard "saved".
            foreach (var temp in Directory.GetFiles(folder, "*.tmp")) File.Delete(temp);
            var files = Directory.GetFiles(folder, "*.json").OrderBy(f => Path.GetFileName(f), StringComparer.Ordinal);
            foreach (var file in files)
            {
                long number;
                if (!long.TryParse(Path.GetFileNameWithoutExtension(file), NumberStyles.None, CultureInfo.InvariantCulture, out number))
                    continue;
                lastNumber = Math.Max(lastNumber, number);
                try
                {
                    var o = JsonFields.AsObject(Json.Parse(File.ReadAllText(file, Encoding.UTF8)));
                    var entry = new OutboxEntry
                    {
                        Number = number,
                        Kind = JsonFields.String(o, "kind"),
                        SessionId = JsonFields.String(o, "session_id"),
                        IdempotencyKey = JsonFields.String(o, "idempotency_key"),
                        Body = JsonFields.AsObject(JsonFields.Get(o, "body")),
                        FilePath = file,
                        Durable = Task.FromResult(true),
                    };
                    if ((entry.Kind != "progress" && entry.Kind != "finish") || entry.SessionId == null ||
                        entry.IdempotencyKey == null || entry.Body == null)
                        throw new FormatException("missing fields");
                    entries.Add(entry);
                }
                catch (Exception error)
                {
                    // Kept aside, not deleted: someone may want to look at it.
                    log("outbox: " + Path.GetFileName(file) + " is unreadable (" + error.Message + "); moved to outbox/unreadable");
                    var aside = Path.Combine(folder, "unreadable");
                    Directory.CreateDirectory(aside);
                    File.Move(file, Path.Combine(aside, Path.GetFileName(file)));
                }
            }
        }

        public int Count { get { lock (gate) return entries.Count; } }

        public OutboxEntry Peek()
        {
            lock (gate) return entries.Count > 0 ? entries[0] : null;
        }

        public bool HoldsFinishOf(string sessionId)
        {
            lock (gate) return entries.Any(e => e.Kind == "finish" && e.SessionId == sessionId);
        }

        /// <summary>Sessions whose finish is still waiting: this app has ended them.</summary>
        public List<string> FinishedSessions()
        {
            lock (gate) return entries.Where(e => e.Kind == "finish").Select(e => e.SessionId).ToList();
        }

        public long HighestSeqOf(string sessionId)
        {
            lock (gate)
                return entries.Where(e => e.SessionId == sessionId)
                    .Select(e => JsonFields.Long(e.Body, "seq") ?? 0).DefaultIfEmpty(0).Max();
        }

        /// <summary>The highest completed_tasks the outbox still holds for the session (0 when none).</summary>
        public int HighestCountOf(string sessionId)
        {
            lock (gate)
                return (int)entries.Where(e => e.SessionId == sessionId)
                    .Select(e => JsonFields.Long(e.Body, "completed_tasks") ?? 0).DefaultIfEmpty(0).Max();
        }

        /// <summary>Takes the report's place in the order, in memory only (no disk I/O): <see cref="Persist"/> writes it.</summary>
        public OutboxEntry Reserve(string kind, string sessionId, Dictionary<string, object> body)
        {
            lock (gate)
            {
                var number = ++lastNumber;
                var entry = new OutboxEntry
                {
                    Number = number,
                    Kind = kind,
                    SessionId = sessionId,
                    IdempotencyKey = Guid.NewGuid().ToString(),
                    Body = body,
                    FilePath = Path.Combine(folder, number.ToString("D12", CultureInfo.InvariantCulture) + ".json"),
                };
                entries.Add(entry);
                return entry;
            }
        }

        /// <summary>Writes a reserved report to disk (the disk writer's thread); returns once it is there.</summary>
        public void Persist(OutboxEntry entry, DateTime createdAt)
        {
            lock (disk)
            {
                if (entry.Dropped) return;
                DurableFile.Write(entry.FilePath, Json.Write(new Dictionary<string, object>
                {
                    { "kind", entry.Kind },
                    { "session_id", entry.SessionId },
                    { "idempotency_key", entry.IdempotencyKey },
                    { "body", entry.Body },
                    { "created_at", JsonFields.FormatTime(createdAt) },
                }));
            }
        }

        /// <summary>A report that could not be written leaves the order (its call's task failed).</summary>
        public void Forget(OutboxEntry entry)
        {
            lock (gate) entries.Remove(entry);
        }

        public void Remove(OutboxEntry entry)
        {
            lock (disk) File.Delete(entry.FilePath);
            lock (gate) entries.Remove(entry);
        }

        /// <summary>Drops every report (the device was removed: no report of it can be delivered).</summary>
        public int Clear()
        {
            List<OutboxEntry> dropped;
            lock (gate)
            {
                dropped = entries.ToList();
                foreach (var entry in dropped) entry.Dropped = true;
                entries.Clear();
            }
            lock (disk)
                foreach (var entry in dropped)
                    if (File.Exists(entry.FilePath)) File.Delete(entry.FilePath);
            return dropped.Count;
        }
    }
}
