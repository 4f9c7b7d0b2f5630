using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace Vrtc.Headset
{
    /// <summary>A launch from an LMS this headset claimed: the session it started (docs/lms.md).</summary>
    public sealed class LaunchClaim
    {
        public string SessionId;
        public string VrUserName;
        public string LevelName;
    }

    public sealed partial class HeadsetClient
    {
        public const string ClaimLaunchPath = "/v1/headset/launches/claim";

        /// <summary>
        /// Enters the 6-digit PIN an LMS's launch page shows: the server starts that learner's
        /// session on this headset, as a start from the console does, and the next heartbeat
        /// (asked for at once) announces it through SessionAssigned. Throws
        /// <see cref="HeadsetException"/> with ErrorCode "launch_pin_invalid" for a wrong,
        /// expired or used PIN, "rate_limited" after too many wrong ones, "device_busy" while a
        /// session runs, "network_error" when the server cannot be reached.
        /// </summary>
        public Task<LaunchClaim> ClaimLaunchAsync(string pin)
        {
            if (pin == null || pin.Trim().Length != 6) throw new ArgumentException("pin must be 6 digits");
            if (!IsEnrolled) throw new InvalidOperationException("Enrol first (EnrollAsync) or check IsEnrolled");
            return Task.Run(() => ClaimLaunchCoreAsync(pin.Trim()));
        }

        async Task<LaunchClaim> ClaimLaunchCoreAsync(string pin)
        {
            DeviceState device;
            lock (gate) device = state;
            var answer = await transport.SendAsync(ClaimLaunchPath, new Dictionary<string, object>
            {
                { "pin", pin },
            }, device.DeviceToken, null, CancellationToken.None).ConfigureAwait(false);
            if (answer.Status != 201 && answer.Status != 200) throw answer.ToException();
            var claim = new LaunchClaim
            {
                SessionId = JsonFields.String(answer.Body, "id"),
                VrUserName = JsonFields.String(answer.Body, "vr_user_name"),
                LevelName = JsonFields.String(answer.Body, "level_name"),
            };
            // The session is delivered by the heartbeat: ask now rather than at the next interval.
            await HeartbeatOnceAsync(CancellationToken.None).ConfigureAwait(false);
            return claim;
        }
    }
}
