namespace Vrtc.Headset
{
    /// <summary>How an enrolment went, in the terms an enrolment screen shows.</summary>
    public enum EnrollmentOutcome
    {
        /// <summary>Enrolled: the token is in DataPath and the heartbeats can start.</summary>
        Enrolled,
        /// <summary>No organisation has this code: a typo, or a code renewed or revoked in the console.</summary>
        WrongCode,
        /// <summary>The code was right but is no longer valid (codes last 24 hours): ask for the current one.</summary>
        ExpiredCode,
        /// <summary>Too many wrong codes from this network: wait <see cref="EnrollmentResult.RetryAfterSeconds"/>.</summary>
        TooManyAttempts,
        /// <summary>The organisation has as many headsets as it may: remove one in the console.</summary>
        QuotaExceeded,
        /// <summary>The server could not be reached (Wi-Fi, server address, certificate).</summary>
        NetworkError,
        /// <summary>Anything else the server answered; see <see cref="EnrollmentResult.Message"/>.</summary>
        Failed,
    }

    /// <summary>The result of <see cref="HeadsetClient.TryEnrollAsync"/>: never an exception for what a person can fix.</summary>
    public sealed class EnrollmentResult
    {
        public EnrollmentOutcome Outcome { get; internal set; }
        public bool Succeeded { get { return Outcome == EnrollmentOutcome.Enrolled; } }
        /// <summary>The device id on success.</summary>
        public string DeviceId { get; internal set; }
        /// <summary>The server's error code ("enrollment_code_invalid", …) or "network_error"; null on success.</summary>
        public string ErrorCode { get; internal set; }
        /// <summary>The server's message (English), for a log; show your own text per <see cref="Outcome"/>.</summary>
        public string Message { get; internal set; }
        public int? RetryAfterSeconds { get; internal set; }

        internal static EnrollmentResult From(HeadsetException error)
        {
            EnrollmentOutcome outcome;
            switch (error.ErrorCode)
            {
                case "enrollment_code_invalid":
                    outcome = error.Reason == "expired" ? EnrollmentOutcome.ExpiredCode : EnrollmentOutcome.WrongCode;
                    break;
                case "enrollment_code_expired": outcome = EnrollmentOutcome.ExpiredCode; break;
                case "rate_limited": outcome = EnrollmentOutcome.TooManyAttempts; break;
                case "quota_exceeded": outcome = EnrollmentOutcome.QuotaExceeded; break;
                case "network_error": outcome = EnrollmentOutcome.NetworkError; break;
                default: outcome = EnrollmentOutcome.Failed; break;
            }
            return new EnrollmentResult
            {
                Outcome = outcome,
                ErrorCode = error.ErrorCode,
                Message = error.Message,
                RetryAfterSeconds = error.RetryAfter.HasValue ? (int?)System.Math.Ceiling(error.RetryAfter.Value.TotalSeconds) : null,
            };
        }
    }
}
