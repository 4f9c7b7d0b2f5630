#if !UNITY_5_3_OR_NEWER
// Outside Unity (Mono, `npm test`): the part of NUnit the tests use, and a runner. Inside Unity
// this file compiles to nothing and the Unity Test Runner's NUnit runs the same test classes.
using System;
using System.Collections;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Reflection;
using System.Threading;

namespace NUnit.Framework
{
    [AttributeUsage(AttributeTargets.Class)] public sealed class TestFixtureAttribute : Attribute { }
    [AttributeUsage(AttributeTargets.Method)] public sealed class TestAttribute : Attribute { }
    [AttributeUsage(AttributeTargets.Method)] public sealed class SetUpAttribute : Attribute { }
    [AttributeUsage(AttributeTargets.Method)] public sealed class TearDownAttribute : Attribute { }

    public sealed class AssertionException : Exception { public AssertionException(string message) : base(message) { } }
    public sealed class IgnoreException : Exception { public IgnoreException(string message) : base(message) { } }

    public delegate void TestDelegate();

    public static class Assert
    {
        static string With(string message) { return string.IsNullOrEmpty(message) ? "" : message + ": "; }

        static bool Same(object expected, object actual)
        {
            if (expected == null || actual == null) return expected == null && actual == null;
            if (IsNumber(expected) && IsNumber(actual))
                return Convert.ToDouble(expected) == Convert.ToDouble(actual);
            return expected.Equals(actual);
        }

        static bool IsNumber(object value)
        {
            return value is int || value is long || value is double || value is float || value is short || value is decimal;
        }

        static string Show(object value) { return value == null ? "null" : value is string ? "\"" + value + "\"" : value.ToString(); }

        public static void AreEqual(object expected, object actual, string message = null)
        {
            if (!Same(expected, actual)) throw new AssertionException(With(message) + "expected " + Show(expected) + " but was " + Show(actual));
        }

        public static void AreNotEqual(object expected, object actual, string message = null)
        {
            if (Same(expected, actual)) throw new AssertionException(With(message) + "expected anything but " + Show(expected));
        }

        public static void IsTrue(bool condition, string message = null) { if (!condition) throw new AssertionException(With(message) + "expected true"); }
        public static void IsFalse(bool condition, string message = null) { if (condition) throw new AssertionException(With(message) + "expected false"); }
        public static void IsNull(object value, string message = null) { if (value != null) throw new AssertionException(With(message) + "expected null but was " + Show(value)); }
        public static void IsNotNull(object value, string message = null) { if (value == null) throw new AssertionException(With(message) + "expected a value"); }
        public static void Fail(string message) { throw new AssertionException(message); }
        public static void Ignore(string message) { throw new IgnoreException(message); }

        public static T Throws<T>(TestDelegate code, string message = null) where T : Exception
        {
            try { code(); }
            catch (T expected) { return expected; }
            catch (Exception other) { throw new AssertionException(With(message) + "expected " + typeof(T).Name + " but got " + other.GetType().Name + ": " + other.Message); }
            throw new AssertionException(With(message) + "expected " + typeof(T).Name + " but nothing was thrown");
        }
    }
}

namespace UnityEngine.TestTools
{
    /// <summary>A test that yields frames (Unity's [UnityTest]): the main thread's queue is run between them.</summary>
    [AttributeUsage(AttributeTargets.Method)] public sealed class UnityTestAttribute : Attribute { }
}

namespace Vrtc.Headset.Tests
{
    /// <summary>
    /// The main thread as Unity's Test Runner gives it to a test: a SynchronizationContext whose
    /// posts wait in a queue that runs only between frames (a [UnityTest]'s yields), never while a
    /// test blocks. Code that waits on the main thread for something posted to it hangs here as it
    /// would in Unity.
    /// </summary>
    public sealed class NonPumpingMainThreadContext : SynchronizationContext
    {
        readonly Queue<KeyValuePair<SendOrPostCallback, object>> queue = new Queue<KeyValuePair<SendOrPostCallback, object>>();
        public readonly int ThreadId = Thread.CurrentThread.ManagedThreadId;

        public override void Post(SendOrPostCallback callback, object state)
        {
            lock (queue) queue.Enqueue(new KeyValuePair<SendOrPostCallback, object>(callback, state));
        }

        public override void Send(SendOrPostCallback callback, object state)
        {
            if (Thread.CurrentThread.ManagedThreadId != ThreadId) throw new InvalidOperationException("Send from another thread would wait for a frame: not supported");
            callback(state);
        }

        public override SynchronizationContext CreateCopy() { return this; }

        /// <summary>One frame: runs what was posted before it began.</summary>
        public void RunFrame()
        {
            if (Thread.CurrentThread.ManagedThreadId != ThreadId) throw new InvalidOperationException("frames run on the main thread");
            KeyValuePair<SendOrPostCallback, object>[] due;
            lock (queue)
            {
                due = queue.ToArray();
                queue.Clear();
            }
            foreach (var item in due) item.Key(item.Value);
        }
    }

    /// <summary>Runs every [Test] of this assembly (or those whose name contains an argument); exit code 1 on a failure.</summary>
    public static class TestRunner
    {
        public static int Main(string[] args)
        {
            // Every test runs on this thread under a main-thread context that is not pumped while
            // the test blocks, as in Unity's Test Runner (its [UnityTest]s get frames when they yield).
            var mainThread = new NonPumpingMainThreadContext();
            SynchronizationContext.SetSynchronizationContext(mainThread);
            Console.WriteLine("main thread: a SynchronizationContext run only between a [UnityTest]'s frames (as Unity's Test Runner)");
            var tests = typeof(TestRunner).Assembly.GetTypes()
                .Where(type => type.IsClass && !type.IsAbstract)
                .SelectMany(type => type.GetMethods(BindingFlags.Public | BindingFlags.Instance)
                    .Where(method => method.IsDefined(typeof(NUnit.Framework.TestAttribute), false) ||
                                     method.IsDefined(typeof(UnityEngine.TestTools.UnityTestAttribute), false))
                    .Select(method => new { type, method, name = type.Name + "." + method.Name }))
                .Where(test => args.Length == 0 || args.Any(arg => test.name.Contains(arg)))
                .OrderBy(test => test.name, StringComparer.Ordinal)
                .ToList();
            int passed = 0, failed = 0, ignored = 0;
            var clock = Stopwatch.StartNew();
            foreach (var test in tests)
            {
                var started = clock.Elapsed;
                object instance = null;
                Exception failure = null;
                try
                {
                    instance = Activator.CreateInstance(test.type);
                    Invoke(instance, typeof(NUnit.Framework.SetUpAttribute));
                    var result = test.method.Invoke(instance, null);
                    var frames = result as IEnumerator;
                    if (frames != null) RunFrames(frames, mainThread);
                }
                catch (Exception error) { failure = Unwrap(error); }
                try { if (instance != null) Invoke(instance, typeof(NUnit.Framework.TearDownAttribute)); }
                catch (Exception error) { if (failure == null) failure = Unwrap(error); }
                // What the test left posted runs in the next frame, as Unity's would.
                try { mainThread.RunFrame(); }
                catch (Exception error) { if (failure == null) failure = Unwrap(error); }
                var took = (clock.Elapsed - started).TotalSeconds.ToString("0.0") + " s";
                if (failure == null) { passed++; Console.WriteLine("ok      " + test.name + " (" + took + ")"); }
                else if (failure is NUnit.Framework.IgnoreException) { ignored++; Console.WriteLine("ignored " + test.name + ": " + failure.Message); }
                else
                {
                    failed++;
                    Console.WriteLine("FAIL    " + test.name + " (" + took + ")");
                    Console.WriteLine("        " + (failure is NUnit.Framework.AssertionException ? failure.Message : failure.ToString()).Replace("\n", "\n        "));
                }
            }
            Console.WriteLine("tests: " + passed + " passed, " + failed + " failed, " + ignored + " ignored (" + clock.Elapsed.TotalSeconds.ToString("0.0") + " s)");
            return failed == 0 && tests.Count > 0 ? 0 : 1;
        }

        /// <summary>
        /// A [UnityTest]: each `yield return` ends a frame (about 10 ms, in which the main thread's
        /// queue runs); a yielded IEnumerator runs to its end first, as Unity's edit-mode runner does.
        /// </summary>
        static void RunFrames(IEnumerator frames, NonPumpingMainThreadContext mainThread)
        {
            var stack = new Stack<IEnumerator>();
            stack.Push(frames);
            while (stack.Count > 0)
            {
                if (!stack.Peek().MoveNext())
                {
                    stack.Pop();
                    continue;
                }
                var nested = stack.Peek().Current as IEnumerator;
                if (nested != null)
                {
                    stack.Push(nested);
                    continue;
                }
                Thread.Sleep(10);
                mainThread.RunFrame();
            }
        }

        static void Invoke(object instance, Type attribute)
        {
            foreach (var method in instance.GetType().GetMethods(BindingFlags.Public | BindingFlags.Instance))
                if (method.IsDefined(attribute, false)) method.Invoke(instance, null);
        }

        static Exception Unwrap(Exception error)
        {
            while ((error is TargetInvocationException || error is AggregateException) && error.InnerException != null)
                error = error.InnerException;
            return error;
        }
    }
}
#endif
