using System.Collections;
using System.Collections.Generic;
using UnityEngine;
using Vrtc.Headset;

namespace Vrtc.Headset.Samples
{
    /// <summary>
    /// Plays the session the console starts on this headset: one task every `secondsPerTask` (a
    /// real app ends a task when the trainee does it: call <see cref="CompleteTask"/>), each task
    /// reported as it ends, then the run finished. Stops at once when the console cancels it.
    /// Put it beside a <see cref="HeadsetBehaviour"/>; enrol by calling <c>HeadsetBehaviour.Enroll</c>
    /// from your UI with the code the console shows (Headsets → Add headset), as
    /// <see cref="TrainingFlow"/> does.
    /// </summary>
    [RequireComponent(typeof(HeadsetBehaviour))]
    public sealed class SessionPlayer : MonoBehaviour
    {
        public float secondsPerTask = 5f;
        public bool playByItself = true;

        HeadsetClient client;
        SessionInfo session;
        int completed;
        float taskStartedAt;
        readonly List<TaskReport> tasks = new List<TaskReport>();
        Coroutine playing;

        void Start()
        {
            client = GetComponent<HeadsetBehaviour>().Client;
            // The client was created on the main thread: these handlers run there too.
            client.SessionAssigned += OnSessionAssigned;
            client.SessionEnded += OnSessionEnded;
            client.ConnectionChanged += online => Debug.Log(online ? "VRTC: connected" : "VRTC: offline, results wait on the headset");
            client.Unenrolled += () => Debug.LogWarning("VRTC: this headset was removed in the console; enrol it again");
        }

        void OnSessionAssigned(SessionInfo assigned)
        {
            session = assigned;
            completed = assigned.CompletedTasks; // resume after what the server already has
            tasks.Clear();
            taskStartedAt = Time.time;
            Debug.Log("VRTC: " + assigned.VrUserName + " plays " + assigned.ScenarioName + " / " + assigned.LevelName +
                      " (" + assigned.MaxTasks + " tasks)");
            if (playByItself) playing = StartCoroutine(PlayByItself());
        }

        void OnSessionEnded(SessionEndInfo end)
        {
            if (end.Reason != SessionEndReason.Finished) Debug.Log("VRTC: session stopped: " + end.Reason);
            if (playing != null) StopCoroutine(playing);
            playing = null;
            session = null;
        }

        IEnumerator PlayByItself()
        {
            while (session != null && completed < session.MaxTasks)
            {
                yield return new WaitForSeconds(secondsPerTask);
                CompleteTask(true, 80f);
            }
        }

        /// <summary>The trainee finished a task: report it; after the last one, finish the run.</summary>
        public async void CompleteTask(bool passed, float score)
        {
            if (session == null) return;
            completed++;
            var task = new TaskReport(completed, passed ? TaskResult.Passed : TaskResult.Failed)
            {
                Score = score,
                DurationMs = (int)((Time.time - taskStartedAt) * 1000),
            };
            taskStartedAt = Time.time;
            tasks.Add(task);
            var last = completed >= session.MaxTasks || !passed;
            // Both calls return at once (the report is written off the main thread); awaiting them
            // waits until it is on disk without holding a frame. Delivery follows, online or later.
            await client.ReportProgressAsync(completed, task);
            if (last) await client.FinishAsync(passed, completed, tasks);
        }
    }
}
