using System;

namespace Vrtc.Headset
{
    /// <summary>The time the SDK stamps reports with and measures backoff by; a test may pass its own.</summary>
    public interface IClock
    {
        DateTime UtcNow { get; }
    }

    /// <summary>The machine's clock.</summary>
    public sealed class SystemClock : IClock
    {
        public static readonly SystemClock Instance = new SystemClock();
        public DateTime UtcNow { get { return DateTime.UtcNow; } }
    }
}
