#if UNITY_5_3_OR_NEWER && UNITY_EDITOR
using System;
using System.Collections.Generic;
using System.IO;
using UnityEditor;
using UnityEngine;

namespace Vrtc.Headset.Editor
{
    /// <summary>
    /// Window → VR Training Console → Headset simulator: enrols the Editor as a headset, shows the
    /// session the console starts on it, and plays it by hand (task done, finish) without a headset.
    /// Its state lives in Library/VrtcHeadsetSimulator, apart from a player's persistentDataPath.
    /// </summary>
    public sealed class HeadsetSimulatorWindow : EditorWindow
    {
        string serverUrl = "http://127.0.0.1:8080";
        string deviceName = "Unity Editor";
        string deviceType = "quest";
        string code = "";
        HeadsetClient client;
        int completed;
        readonly List<string> lines = new List<string>();
        Vector2 scroll;

        [MenuItem("Window/VR Training Console/Headset simulator")]
        public static void Open()
        {
            GetWindow<HeadsetSimulatorWindow>("Headset simulator");
        }

        static string DataPath
        {
            get { return Path.GetFullPath(Path.Combine(Application.dataPath, "../Library/VrtcHeadsetSimulator")); }
        }

        void OnDisable() { Close(client); client = null; }

        static void Close(HeadsetClient old)
        {
            if (old == null) return;
            _ = old.StopAsync();
            old.Dispose();
        }

        /// <summary>Called from the client's threads too (its log): the window repaints on its own tick.</summary>
        void Say(string line)
        {
            lock (lines)
            {
                lines.Add(DateTime.Now.ToString("HH:mm:ss") + "  " + line);
                if (lines.Count > 200) lines.RemoveAt(0);
            }
        }

        void OnInspectorUpdate() { Repaint(); }

        HeadsetClient Client()
        {
            if (client != null) return client;
            client = new HeadsetClient(new HeadsetOptions
            {
                ServerUrl = serverUrl,
                DataPath = DataPath,
                DeviceName = deviceName,
                DeviceType = deviceType,
                AppVersion = Application.version,
                Log = Say,
            });
            client.SessionAssigned += session =>
            {
                completed = session.CompletedTasks;
                Say("session " + session.ScenarioName + " / " + session.ModuleName + " / " + session.LevelName +
                    " (" + session.MaxTasks + " tasks) for " + session.VrUserName);
            };
            client.SessionEnded += end => Say("session ended: " + end.Reason);
            client.ConnectionChanged += online => Say(online ? "connected" : "connection lost");
            client.Unenrolled += () => Say("removed in the console: enrol again");
            return client;
        }

        async void Enroll()
        {
            var result = await Client().TryEnrollAsync(code);
            if (result.Succeeded)
            {
                Say("enrolled as " + result.DeviceId);
                client.Start();
            }
            else Say("enrolment refused: " + result.Outcome + " (" + result.Message + ")");
        }

        void OnGUI()
        {
            EditorGUI.BeginDisabledGroup(client != null);
            serverUrl = EditorGUILayout.TextField("Server URL", serverUrl);
            deviceName = EditorGUILayout.TextField("Device name", deviceName);
            deviceType = EditorGUILayout.TextField("Device type", deviceType);
            EditorGUI.EndDisabledGroup();

            var headset = client;
            if (headset == null || !headset.IsEnrolled)
            {
                code = EditorGUILayout.TextField("Enrolment code", code);
                if (GUILayout.Button("Enrol")) Enroll();
                if (headset == null && Directory.Exists(DataPath) && GUILayout.Button("Connect (enrolled before)"))
                {
                    if (Client().IsEnrolled) client.Start();
                    else Say("not enrolled yet");
                }
            }
            else
            {
                EditorGUILayout.LabelField("Device", headset.DeviceId);
                EditorGUILayout.LabelField("Connected", headset.IsConnected ? "yes" : "no");
                EditorGUILayout.LabelField("Reports waiting", headset.PendingReports.ToString());
                var session = headset.CurrentSession;
                if (session != null)
                {
                    EditorGUILayout.LabelField("Session", session.LevelName + " for " + session.VrUserName);
                    EditorGUILayout.LabelField("Level to load", session.LevelId + " rev " + session.LevelRevision + ", " + session.MovementType);
                    EditorGUILayout.LabelField("Tasks", completed + " / " + session.MaxTasks);
                    if (completed < session.MaxTasks && GUILayout.Button("Task done"))
                    {
                        completed++;
                        headset.ReportProgressAsync(completed, new TaskReport(completed, TaskResult.Passed));
                    }
                    if (GUILayout.Button("Finish: success")) headset.FinishAsync(true, completed);
                    if (GUILayout.Button("Finish: failure")) headset.FinishAsync(false, completed);
                }
                else EditorGUILayout.LabelField("Session", "none: start one in the console");
                if (GUILayout.Button("Disconnect")) { Close(client); client = null; }
            }

            scroll = EditorGUILayout.BeginScrollView(scroll);
            lock (lines)
                foreach (var line in lines) EditorGUILayout.LabelField(line);
            EditorGUILayout.EndScrollView();
        }
    }
}
#endif
