using System;
using System.Collections.Generic;
using UnityEngine;
using Vrtc.Headset;

namespace Vrtc.Headset.Samples
{
    /// <summary>
    /// The screens of a training app, start to end: enrolment (a keypad for the console's code, the
    /// reason shown when it is refused), waiting for the trainer to start a session, the task loop
    /// (resumed after a restart at the next task), and the end with its reason. Drawn with IMGUI so
    /// the sample needs no scene or prefab: add a <see cref="HeadsetBehaviour"/> (with a
    /// <see cref="HeadsetConfig"/>) and this component to one GameObject of an empty scene, press
    /// Play. On a headset, draw the same screens in a world-space canvas; the calls stay the same.
    /// </summary>
    [RequireComponent(typeof(HeadsetBehaviour))]
    public sealed class TrainingFlow : MonoBehaviour
    {
        enum Screen { Enrol, Waiting, Playing, Ended }

        const string Keys = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"; // the console's code alphabet
        HeadsetBehaviour headset;
        Screen screen;
        string code = "";
        string message = "";
        bool enrolling;
        SessionInfo session;
        int done;
        float taskStartedAt;
        readonly List<TaskReport> tasks = new List<TaskReport>();
        bool online;

        void Awake()
        {
            headset = GetComponent<HeadsetBehaviour>();
            // UnityEvents of the behaviour, raised on the main thread: they may change the screen.
            headset.sessionAssigned.AddListener(OnSessionAssigned);
            headset.sessionEnded.AddListener(OnSessionEnded);
            headset.connectionChanged.AddListener(now => online = now);
            headset.unenrolled.AddListener(() => Show(Screen.Enrol, "This headset was removed in the console: enter a new code."));
        }

        void Start()
        {
            var client = HeadsetBehaviour.Instance.Client;
            // After a restart the session being played is known at once, online or not.
            if (client.CurrentSession != null) OnSessionAssigned(client.CurrentSession);
            else screen = client.IsEnrolled ? Screen.Waiting : Screen.Enrol;
        }

        void Show(Screen next, string text)
        {
            screen = next;
            message = text;
        }

        async void Submit()
        {
            enrolling = true;
            message = "Checking the code…";
            var result = await HeadsetBehaviour.Instance.Enroll(code); // continues on the main thread
            enrolling = false;
            switch (result.Outcome)
            {
                case EnrollmentOutcome.Enrolled: Show(Screen.Waiting, ""); break;
                case EnrollmentOutcome.WrongCode: message = "Wrong code. Check it in the console: Headsets → Add headset."; break;
                case EnrollmentOutcome.ExpiredCode: message = "This code has expired. Ask for the current one."; break;
                case EnrollmentOutcome.TooManyAttempts: message = "Too many wrong codes. Try again in " + result.RetryAfterSeconds + " s."; break;
                case EnrollmentOutcome.QuotaExceeded: message = "Your organisation has all the headsets it may. Remove one in the console."; break;
                case EnrollmentOutcome.NetworkError: message = "The server cannot be reached. Check the Wi-Fi."; break;
                default: message = "Enrolment failed: " + result.Message; break;
            }
            if (!result.Succeeded) code = "";
        }

        void OnSessionAssigned(SessionInfo assigned)
        {
            session = assigned;
            // Resume after what is done already (reports still waiting to upload included).
            done = assigned.CompletedTasks;
            tasks.Clear();
            taskStartedAt = Time.time;
            // A real app loads its scene here: by assigned.LevelId and assigned.LevelRevision,
            // with assigned.SelectedOptions and assigned.MovementType ("slide" or "teleport").
            Show(Screen.Playing, "");
        }

        void OnSessionEnded(SessionEndInfo end)
        {
            session = null;
            switch (end.Reason)
            {
                case SessionEndReason.Finished: Show(Screen.Ended, end.Success ? "Well done!" : "Finished: not all tasks passed."); break;
                case SessionEndReason.Cancelled: Show(Screen.Ended, "The trainer cancelled the session."); break;
                case SessionEndReason.TimedOut: Show(Screen.Ended, "The session ran out of time."); break;
                case SessionEndReason.Disconnected: Show(Screen.Ended, "The session was ended: the headset was offline too long."); break;
                default: Show(Screen.Ended, "The session was ended in the console."); break;
            }
        }

        void CompleteTask(bool passed)
        {
            done++;
            var task = new TaskReport(done, passed ? TaskResult.Passed : TaskResult.Failed)
            {
                Score = passed ? 90 : 30,
                DurationMs = (int)((Time.time - taskStartedAt) * 1000),
            };
            taskStartedAt = Time.time;
            tasks.Add(task);
            var client = HeadsetBehaviour.Instance.Client;
            // Both return at once (no disk wait in the frame); the reports leave when the network allows.
            client.ReportProgressAsync(done, task);
            if (done >= session.MaxTasks || !passed) client.FinishAsync(passed, done, tasks);
        }

        void OnGUI()
        {
            GUI.skin.label.fontSize = GUI.skin.button.fontSize = 28;
            GUILayout.BeginArea(new Rect(40, 40, UnityEngine.Screen.width - 80, UnityEngine.Screen.height - 80));
            GUILayout.Label(online ? "● online" : "○ offline (results wait on the headset)");
            switch (screen)
            {
                case Screen.Enrol: Keypad(); break;
                case Screen.Waiting: GUILayout.Label("Waiting for the trainer to start a session…"); break;
                case Screen.Playing: Playing(); break;
                case Screen.Ended:
                    GUILayout.Label(message);
                    if (GUILayout.Button("Back", GUILayout.Height(70))) Show(Screen.Waiting, "");
                    break;
            }
            GUILayout.EndArea();
        }

        void Keypad()
        {
            GUILayout.Label("Enter the code shown in the console (Headsets → Add headset):");
            GUILayout.Label(code.PadRight(8, '_'));
            for (var row = 0; row < Keys.Length; row += 8)
            {
                GUILayout.BeginHorizontal();
                foreach (var key in Keys.Substring(row, Math.Min(8, Keys.Length - row)))
                    if (GUILayout.Button(key.ToString(), GUILayout.Width(70), GUILayout.Height(70)) && code.Length < 8 && !enrolling) code += key;
                GUILayout.EndHorizontal();
            }
            GUILayout.BeginHorizontal();
            if (GUILayout.Button("⌫", GUILayout.Height(70)) && code.Length > 0 && !enrolling) code = code.Substring(0, code.Length - 1);
            GUI.enabled = code.Length == 8 && !enrolling;
            if (GUILayout.Button("Enrol", GUILayout.Height(70))) Submit();
            GUI.enabled = true;
            GUILayout.EndHorizontal();
            GUILayout.Label(message);
        }

        void Playing()
        {
            if (session == null) session = HeadsetBehaviour.Instance.Client.CurrentSession;
            if (session == null) { GUILayout.Label("…"); return; }
            GUILayout.Label(session.VrUserName + ": " + session.ScenarioName + " / " + session.LevelName);
            GUILayout.Label("Task " + (done + 1) + " of " + session.MaxTasks);
            GUILayout.BeginHorizontal();
            if (GUILayout.Button("Task passed", GUILayout.Height(70))) CompleteTask(true);
            if (GUILayout.Button("Task failed", GUILayout.Height(70))) CompleteTask(false);
            GUILayout.EndHorizontal();
        }
    }
}
