using System;
using System.Collections.Generic;
using System.IO;
using System.Net;
using System.Net.Http;
using System.Net.Http.Headers;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Vrtc.Headset
{
    /// <summary>An answer of the server: status, JSON body, error code and Retry-After.</summary>
    internal sealed class Answer
    {
        public int Status;
        public Dictionary<string, object> Body;
        public string Code;
        public string Message;
        public TimeSpan? RetryAfter;

        public string Describe()
        {
            return Status + " " + (Code ?? "") + (Message != null ? ": " + Message : "");
        }

        public HeadsetException ToException()
        {
            return new HeadsetException(Status, Code ?? "http_error", Message ?? ("HTTP " + Status))
            {
                Reason = JsonFields.String(JsonFields.AsObject(JsonFields.Get(Body, "details")), "reason"),
                RetryAfter = RetryAfter,
            };
        }
    }

    /// <summary>JSON over HTTP to the server: one request per call, each with its own time limit.</summary>
    internal sealed class Transport : IDisposable
    {
        readonly HttpClient http;
        readonly string baseUrl;
        readonly TimeSpan requestTimeout;
        readonly IClock clock;

        public Transport(HeadsetOptions options, string baseUrl)
        {
            http = new HttpClient(options.HttpHandler ?? new HttpClientHandler(), options.HttpHandler == null);
            http.Timeout = Timeout.InfiniteTimeSpan; // each request has its own limit (RequestTimeout)
            this.baseUrl = baseUrl;
            requestTimeout = options.RequestTimeout;
            clock = options.Clock ?? SystemClock.Instance;
        }

        /// <summary>POSTs a JSON body; any answer is returned, an unreachable server throws HeadsetException(0, "network_error").</summary>
        public Task<Answer> SendAsync(string path, Dictionary<string, object> body, string token, string idempotencyKey, CancellationToken cancel)
        {
            var request = new HttpRequestMessage(HttpMethod.Post, baseUrl + path);
            request.Content = new StringContent(Json.Write(body), Encoding.UTF8, "application/json");
            if (idempotencyKey != null) request.Headers.TryAddWithoutValidation("Idempotency-Key", idempotencyKey);
            return ExchangeAsync(request, token, requestTimeout, cancel);
        }

        /// <summary>A GET the server may hold (the push channel): its time limit is the hold plus RequestTimeout.</summary>
        public Task<Answer> GetAsync(string pathAndQuery, string token, TimeSpan held, CancellationToken cancel)
        {
            var request = new HttpRequestMessage(HttpMethod.Get, baseUrl + pathAndQuery);
            return ExchangeAsync(request, token, held + requestTimeout, cancel);
        }

        async Task<Answer> ExchangeAsync(HttpRequestMessage request, string token, TimeSpan timeout, CancellationToken cancel)
        {
            using (var limit = CancellationTokenSource.CreateLinkedTokenSource(cancel))
            using (request)
            {
                limit.CancelAfter(timeout);
                if (token != null) request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", token);
                try
                {
                    using (var response = await http.SendAsync(request, limit.Token).ConfigureAwait(false))
                    {
                        var text = await response.Content.ReadAsStringAsync().ConfigureAwait(false);
                        return Read((int)response.StatusCode, text, response.Headers.RetryAfter);
                    }
                }
                catch (OperationCanceledException error)
                {
                    if (cancel.IsCancellationRequested) throw;
                    throw new HeadsetException(0, "network_error", "No answer within " + timeout.TotalSeconds + " s", error);
                }
                catch (HttpRequestException error) { throw Network(error); }
                catch (WebException error) { throw Network(error); }
                catch (IOException error) { throw Network(error); }
            }
        }

        Answer Read(int status, string text, RetryConditionHeaderValue retryAfter)
        {
            var answer = new Answer { Status = status };
            try { answer.Body = JsonFields.AsObject(Json.Parse(text)); }
            catch (FormatException) { }
            answer.Code = JsonFields.String(answer.Body, "error");
            answer.Message = JsonFields.String(answer.Body, "message");
            if (retryAfter != null)
            {
                if (retryAfter.Delta.HasValue) answer.RetryAfter = retryAfter.Delta;
                else if (retryAfter.Date.HasValue) answer.RetryAfter = retryAfter.Date.Value.UtcDateTime - clock.UtcNow;
                if (answer.RetryAfter < TimeSpan.Zero) answer.RetryAfter = TimeSpan.Zero;
            }
            return answer;
        }

        static HeadsetException Network(Exception error)
        {
            var inner = error.InnerException != null ? " (" + error.InnerException.Message + ")" : "";
            return new HeadsetException(0, "network_error", "The server cannot be reached: " + error.Message + inner, error);
        }

        public void Dispose() { http.Dispose(); }
    }
}
