// The part of UnityEngine and UnityEditor that sdk/unity's Unity layer uses, with Unity's own
// signatures and no behaviour: scripts/sdk-test.mjs compiles the package's Unity files
// (Runtime/Unity, Editor, Samples~/UnityPlayer) against it with UNITY_5_3_OR_NEWER and
// UNITY_EDITOR defined, so a call that does not compile fails `npm test` rather than a Unity
// project. It proves the code compiles against these signatures, not against Unity itself: a
// member added here must be copied from Unity's scripting reference.
#pragma warning disable 67, 649
using System;
using System.Collections;
using System.Reflection;

namespace UnityEngine
{
    public class Object
    {
        public static void Destroy(Object target) { }
        public static void DontDestroyOnLoad(Object target) { }
        public static bool operator ==(Object a, Object b) { return ReferenceEquals(a, b); }
        public static bool operator !=(Object a, Object b) { return !ReferenceEquals(a, b); }
        public override bool Equals(object other) { return ReferenceEquals(this, other); }
        public override int GetHashCode() { return 0; }
    }
    public class GameObject : Object { }
    public class Component : Object
    {
        public GameObject gameObject { get { return null; } }
        public T GetComponent<T>() { return default(T); }
    }
    public class Behaviour : Component { public bool enabled { get; set; } }
    public class Coroutine { }
    public class MonoBehaviour : Behaviour
    {
        public Coroutine StartCoroutine(IEnumerator routine) { return null; }
        public void StopCoroutine(Coroutine routine) { }
    }
    public class ScriptableObject : Object { }
    public class YieldInstruction { }
    public sealed class WaitForSeconds : YieldInstruction { public WaitForSeconds(float seconds) { } }
    public struct Vector2 { public float x, y; }
    public struct Rect { public Rect(float x, float y, float width, float height) { } }
    public static class Debug
    {
        public static void Log(object message) { }
        public static void LogWarning(object message) { }
        public static void LogError(object message) { }
    }
    public static class Application
    {
        public static string persistentDataPath { get { return ""; } }
        public static string dataPath { get { return ""; } }
        public static string version { get { return ""; } }
    }
    public static class SystemInfo
    {
        public static float batteryLevel { get { return -1; } }
        public static string deviceName { get { return ""; } }
    }
    public static class Mathf
    {
        public static int RoundToInt(float f) { return (int)Math.Round(f); }
        public static int Clamp(int value, int min, int max) { return Math.Max(min, Math.Min(max, value)); }
    }
    public static class Time { public static float time { get { return 0; } } }
    public static class Screen
    {
        public static int width { get { return 0; } }
        public static int height { get { return 0; } }
    }
    public sealed class GUIStyle { public int fontSize { get; set; } }
    public sealed class GUISkin
    {
        public GUIStyle label { get { return null; } }
        public GUIStyle button { get { return null; } }
    }
    public class GUI
    {
        public static bool enabled { get; set; }
        public static GUISkin skin { get { return null; } }
    }
    public sealed class GUILayoutOption { }
    public class GUILayout
    {
        public static void Label(string text, params GUILayoutOption[] options) { }
        public static bool Button(string text, params GUILayoutOption[] options) { return false; }
        public static void BeginHorizontal(params GUILayoutOption[] options) { }
        public static void EndHorizontal() { }
        public static void BeginArea(Rect screenRect) { }
        public static void EndArea() { }
        public static GUILayoutOption Width(float width) { return null; }
        public static GUILayoutOption Height(float height) { return null; }
    }
    [AttributeUsage(AttributeTargets.Field)] public sealed class TooltipAttribute : Attribute { public TooltipAttribute(string tooltip) { } }
    [AttributeUsage(AttributeTargets.Class)] public sealed class DisallowMultipleComponent : Attribute { }
    [AttributeUsage(AttributeTargets.Class, AllowMultiple = true)] public sealed class RequireComponent : Attribute { public RequireComponent(Type requiredComponent) { } }
    [AttributeUsage(AttributeTargets.Class)]
    public sealed class CreateAssetMenuAttribute : Attribute
    {
        public string menuName { get; set; }
        public string fileName { get; set; }
        public int order { get; set; }
    }
}

namespace UnityEngine.Events
{
    public delegate void UnityAction();
    public delegate void UnityAction<T0>(T0 arg0);
    public abstract class UnityEventBase { }
    [Serializable]
    public class UnityEvent : UnityEventBase
    {
        public void AddListener(UnityAction call) { }
        public void RemoveListener(UnityAction call) { }
        public void Invoke() { }
    }
    [Serializable]
    public abstract class UnityEvent<T0> : UnityEventBase
    {
        public void AddListener(UnityAction<T0> call) { }
        public void RemoveListener(UnityAction<T0> call) { }
        public void Invoke(T0 arg0) { }
    }
}

namespace UnityEditor
{
    public class EditorWindow : UnityEngine.ScriptableObject
    {
        public static T GetWindow<T>(string title) where T : EditorWindow { return null; }
        public void Repaint() { }
    }
    [AttributeUsage(AttributeTargets.Method)] public sealed class MenuItem : Attribute { public MenuItem(string itemName) { } }
    public class EditorGUI
    {
        public static void BeginDisabledGroup(bool disabled) { }
        public static void EndDisabledGroup() { }
    }
    public sealed class EditorGUILayout
    {
        public static string TextField(string label, string text, params UnityEngine.GUILayoutOption[] options) { return text; }
        public static void LabelField(string label, params UnityEngine.GUILayoutOption[] options) { }
        public static void LabelField(string label, string label2, params UnityEngine.GUILayoutOption[] options) { }
        public static UnityEngine.Vector2 BeginScrollView(UnityEngine.Vector2 scrollPosition, params UnityEngine.GUILayoutOption[] options) { return scrollPosition; }
        public static void EndScrollView() { }
    }
}

namespace UnityEditor.Build
{
    public interface IOrderedCallback { int callbackOrder { get; } }
    public interface IUnityLinkerProcessor : IOrderedCallback
    {
        string GenerateAdditionalLinkXmlFile(UnityEditor.Build.Reporting.BuildReport report, UnityEditor.UnityLinker.UnityLinkerBuildPipelineData data);
    }
}

namespace UnityEditor.Build.Reporting { public sealed class BuildReport { } }
namespace UnityEditor.UnityLinker { public sealed class UnityLinkerBuildPipelineData { } }

namespace UnityEditor.PackageManager
{
    public sealed class PackageInfo
    {
        public string resolvedPath { get { return ""; } }
        public static PackageInfo FindForAssembly(Assembly assembly) { return null; }
    }
}
