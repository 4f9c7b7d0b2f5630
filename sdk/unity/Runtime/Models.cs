using System;
using System.Collections.Generic;

namespace Vrtc.Headset
{
    /// <summary>An option the console selected for the session (e.g. "Night").</summary>
    public sealed class SelectedOption
    {
        public string Id { get; internal set; }
        public string Name { get; internal set; }
    }

    /// <summary>A session the console started on this headset: what to play.</summary>
    public sealed class SessionInfo
    {
        public string Id { get; internal set; }
        /// <summary>The scenario, module and level by id: pick the scene by these (names are localised and may change). Null only when the content was deleted since.</summary>
        public string ScenarioId { get; internal set; }
        public string ModuleId { get; internal set; }
        public string LevelId { get; internal set; }
        /// <summary>The level's revision when the session started: the content version to play.</summary>
        public int LevelRevision { get; internal set; }
        /// <summary>How the trainee moves: "slide" or "teleport" (the headset's setting in the console).</summary>
        public string MovementType { get; internal set; }
        public string VrUserName { get; internal set; }
        public string ScenarioName { get; internal set; }
        public string ModuleName { get; internal set; }
        public string LevelName { get; internal set; }
        public int LevelNumber { get; internal set; }
        public int MaxTasks { get; internal set; }
        public IList<SelectedOption> SelectedOptions { get; internal set; }
        public DateTime StartedAt { get; internal set; }
        /// <summary>
        /// Tasks already done: the most the server holds or this app reported (reports still in the
        /// outbox included). Resume at task CompletedTasks + 1, e.g. after an app restart.
        /// </summary>
        public int CompletedTasks { get { return completedTasks; } internal set { completedTasks = value; } }
        volatile int completedTasks;

        internal static SessionInfo FromJson(Dictionary<string, object> o, string movementType)
        {
            var options = new List<SelectedOption>();
            var list = JsonFields.Get(o, "selected_options") as List<object>;
            if (list != null)
                foreach (var item in list)
                {
                    var option = JsonFields.AsObject(item);
                    options.Add(new SelectedOption { Id = JsonFields.String(option, "id"), Name = JsonFields.String(option, "name") });
                }
            return new SessionInfo
            {
                Id = JsonFields.String(o, "id"),
                ScenarioId = JsonFields.String(o, "scenario_id"),
                ModuleId = JsonFields.String(o, "module_id"),
                LevelId = JsonFields.String(o, "level_id"),
                LevelRevision = (int)(JsonFields.Long(o, "level_revision") ?? 0),
                MovementType = JsonFields.String(o, "movement_type") ?? movementType,
                VrUserName = JsonFields.String(o, "vr_user_name"),
                ScenarioName = JsonFields.String(o, "scenario_name"),
                ModuleName = JsonFields.String(o, "module_name"),
                LevelName = JsonFields.String(o, "level_name"),
                LevelNumber = (int)(JsonFields.Long(o, "level_number") ?? 0),
                MaxTasks = (int)(JsonFields.Long(o, "max_tasks") ?? 0),
                SelectedOptions = options.AsReadOnly(),
                StartedAt = JsonFields.Time(o, "started_at") ?? DateTime.UtcNow,
                CompletedTasks = (int)(JsonFields.Long(o, "completed_tasks") ?? 0),
            };
        }
    }

    /// <summary>Why the current session is over for this headset.</summary>
    public enum SessionEndReason
    {
        /// <summary>This app called FinishAsync.</summary>
        Finished,
        /// <summary>Cancelled from the console.</summary>
        Cancelled,
        /// <summary>The server ended it after SESSION_TIMEOUT_MS.</summary>
        TimedOut,
        /// <summary>The server ended it because the headset was silent too long.</summary>
        Disconnected,
        /// <summary>The server no longer lists it and has not said why (a server older than protocol 2.1's `ended_session`).</summary>
        EndedByServer,
    }

    public sealed class SessionEndInfo
    {
        public string SessionId { get; internal set; }
        public SessionEndReason Reason { get; internal set; }
        /// <summary>For <see cref="SessionEndReason.Finished"/>: what the app reported.</summary>
        public bool Success { get; internal set; }
        public int CompletedTasks { get; internal set; }

        internal static SessionEndReason ReasonOf(string serverStatus)
        {
            switch (serverStatus)
            {
                case "cancelled": return SessionEndReason.Cancelled;
                case "timeout": return SessionEndReason.TimedOut;
                case "disconnected": return SessionEndReason.Disconnected;
                case "completed": return SessionEndReason.Finished;
                default: return SessionEndReason.EndedByServer;
            }
        }
    }

    public enum TaskResult { Passed, Failed, Skipped }

    /// <summary>One task of a session as the contract's task report: which, how it went, score, time.</summary>
    public sealed class TaskReport
    {
        /// <summary>1-based number of the task in the level.</summary>
        public int Number;
        public string Key;
        public string Name;
        public TaskResult Result;
        /// <summary>0..100.</summary>
        public double? Score;
        public int? DurationMs;

        public TaskReport() { }

        public TaskReport(int number, TaskResult result)
        {
            Number = number;
            Result = result;
        }

        internal Dictionary<string, object> ToJson()
        {
            if (Number < 1 || Number > 10000) throw new ArgumentOutOfRangeException("Number", "a task number is 1..10000");
            if (Score.HasValue && (Score < 0 || Score > 100)) throw new ArgumentOutOfRangeException("Score", "a score is 0..100");
            if (DurationMs.HasValue && DurationMs < 0) throw new ArgumentOutOfRangeException("DurationMs");
            var o = new Dictionary<string, object> { { "number", Number } };
            if (!string.IsNullOrEmpty(Key)) o["key"] = Key;
            if (!string.IsNullOrEmpty(Name)) o["name"] = Name;
            o["result"] = Result == TaskResult.Passed ? "passed" : Result == TaskResult.Failed ? "failed" : "skipped";
            if (Score.HasValue) o["score"] = Score.Value;
            if (DurationMs.HasValue) o["duration_ms"] = DurationMs.Value;
            return o;
        }
    }

    /// <summary>A call the server refused (its error code and message), or an unreachable server.</summary>
    public sealed class HeadsetException : Exception
    {
        /// <summary>HTTP status, or 0 when the server could not be reached.</summary>
        public int StatusCode { get; private set; }
        /// <summary>The contract's error code (e.g. "enrollment_code_invalid"), or "network_error".</summary>
        public string ErrorCode { get; private set; }

        /// <summary>The answer's `details.reason` when the server gives one (e.g. "expired").</summary>
        public string Reason { get; internal set; }
        /// <summary>The answer's Retry-After, when it had one (429, 503).</summary>
        public TimeSpan? RetryAfter { get; internal set; }

        public HeadsetException(int statusCode, string errorCode, string message, Exception inner = null)
            : base(message, inner)
        {
            StatusCode = statusCode;
            ErrorCode = errorCode;
        }
    }
}
