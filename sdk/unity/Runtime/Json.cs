// A small JSON reader and writer for the protocol's bodies. Our own, on purpose: Unity's JsonUtility
// cannot read dictionaries, nullables or a field that is sometimes null, and exists only inside
// Unity; Newtonsoft.Json is not in every Unity install (and a package that pins a version of it
// clashes with the app's own). The protocol's documents are small and flat, so 300 lines do.
using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Vrtc.Headset
{
    /// <summary>
    /// JSON as plain .NET values: objects are <c>Dictionary&lt;string, object&gt;</c>, arrays
    /// <c>List&lt;object&gt;</c>, numbers <c>long</c> when integral and <c>double</c> otherwise,
    /// then <c>string</c>, <c>bool</c> and <c>null</c>.
    /// </summary>
    public static class Json
    {
        public static object Parse(string text)
        {
            if (text == null) throw new ArgumentNullException("text");
            var reader = new Reader(text);
            reader.SkipWhitespace();
            var value = reader.ReadValue(0);
            reader.SkipWhitespace();
            if (!reader.AtEnd) throw reader.Error("unexpected text after the value");
            return value;
        }

        public static string Write(object value)
        {
            var builder = new StringBuilder();
            WriteValue(builder, value);
            return builder.ToString();
        }

        static void WriteValue(StringBuilder builder, object value)
        {
            if (value == null) { builder.Append("null"); return; }
            var text = value as string;
            if (text != null) { WriteString(builder, text); return; }
            if (value is bool) { builder.Append((bool)value ? "true" : "false"); return; }
            if (value is int || value is long || value is short || value is byte || value is uint)
            {
                builder.Append(Convert.ToInt64(value, CultureInfo.InvariantCulture).ToString(CultureInfo.InvariantCulture));
                return;
            }
            if (value is double || value is float || value is decimal)
            {
                var number = Convert.ToDouble(value, CultureInfo.InvariantCulture);
                if (double.IsNaN(number) || double.IsInfinity(number))
                    throw new ArgumentException("JSON has no NaN or infinity");
                builder.Append(number.ToString("R", CultureInfo.InvariantCulture));
                return;
            }
            var dictionary = value as IDictionary<string, object>;
            if (dictionary != null)
            {
                builder.Append('{');
                var first = true;
                foreach (var pair in dictionary)
                {
                    if (!first) builder.Append(',');
                    first = false;
                    WriteString(builder, pair.Key);
                    builder.Append(':');
                    WriteValue(builder, pair.Value);
                }
                builder.Append('}');
                return;
            }
            var list = value as IEnumerable;
            if (list != null)
            {
                builder.Append('[');
                var first = true;
                foreach (var item in list)
                {
                    if (!first) builder.Append(',');
                    first = false;
                    WriteValue(builder, item);
                }
                builder.Append(']');
                return;
            }
            throw new ArgumentException("cannot write " + value.GetType().Name + " as JSON");
        }

        static void WriteString(StringBuilder builder, string text)
        {
            builder.Append('"');
            foreach (var c in text)
            {
                switch (c)
                {
                    case '"': builder.Append("\\\""); break;
                    case '\\': builder.Append("\\\\"); break;
                    case '\n': builder.Append("\\n"); break;
                    case '\r': builder.Append("\\r"); break;
                    case '\t': builder.Append("\\t"); break;
                    case '\b': builder.Append("\\b"); break;
                    case '\f': builder.Append("\\f"); break;
                    default:
                        if (c < 0x20) builder.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                        else builder.Append(c);
                        break;
                }
            }
            builder.Append('"');
        }

        /// <summary>Nested objects this deep are refused: no protocol document comes close.</summary>
        const int MaxDepth = 64;

        sealed class Reader
        {
            readonly string text;
            int at;

            public Reader(string text) { this.text = text; }

            public bool AtEnd { get { return at >= text.Length; } }

            public FormatException Error(string what)
            {
                return new FormatException("JSON: " + what + " at offset " + at);
            }

            public void SkipWhitespace()
            {
                while (at < text.Length && (text[at] == ' ' || text[at] == '\t' || text[at] == '\n' || text[at] == '\r')) at++;
            }

            public object ReadValue(int depth)
            {
                if (depth > MaxDepth) throw Error("nested too deep");
                if (AtEnd) throw Error("unexpected end");
                var c = text[at];
                switch (c)
                {
                    case '{': return ReadObject(depth);
                    case '[': return ReadArray(depth);
                    case '"': return ReadString();
                    case 't': Expect("true"); return true;
                    case 'f': Expect("false"); return false;
                    case 'n': Expect("null"); return null;
                    default:
                        if (c == '-' || (c >= '0' && c <= '9')) return ReadNumber();
                        throw Error("unexpected character '" + c + "'");
                }
            }

            void Expect(string word)
            {
                if (string.CompareOrdinal(text, at, word, 0, word.Length) != 0) throw Error("expected " + word);
                at += word.Length;
            }

            Dictionary<string, object> ReadObject(int depth)
            {
                var result = new Dictionary<string, object>();
                at++; // {
                SkipWhitespace();
                if (!AtEnd && text[at] == '}') { at++; return result; }
                while (true)
                {
                    SkipWhitespace();
                    if (AtEnd || text[at] != '"') throw Error("expected a property name");
                    var key = ReadString();
                    SkipWhitespace();
                    if (AtEnd || text[at] != ':') throw Error("expected ':'");
                    at++;
                    SkipWhitespace();
                    result[key] = ReadValue(depth + 1);
                    SkipWhitespace();
                    if (AtEnd) throw Error("unexpected end in an object");
                    if (text[at] == ',') { at++; continue; }
                    if (text[at] == '}') { at++; return result; }
                    throw Error("expected ',' or '}'");
                }
            }

            List<object> ReadArray(int depth)
            {
                var result = new List<object>();
                at++; // [
                SkipWhitespace();
                if (!AtEnd && text[at] == ']') { at++; return result; }
                while (true)
                {
                    SkipWhitespace();
                    result.Add(ReadValue(depth + 1));
                    SkipWhitespace();
                    if (AtEnd) throw Error("unexpected end in an array");
                    if (text[at] == ',') { at++; continue; }
                    if (text[at] == ']') { at++; return result; }
                    throw Error("expected ',' or ']'");
                }
            }

            string ReadString()
            {
                at++; // opening quote
                var builder = new StringBuilder();
                while (true)
                {
                    if (AtEnd) throw Error("unterminated string");
                    var c = text[at++];
                    if (c == '"') return builder.ToString();
                    if (c < 0x20) throw Error("control character in a string");
                    if (c != '\\') { builder.Append(c); continue; }
                    if (AtEnd) throw Error("unterminated escape");
                    var e = text[at++];
                    switch (e)
                    {
                        case '"': builder.Append('"'); break;
                        case '\\': builder.Append('\\'); break;
                        case '/': builder.Append('/'); break;
                        case 'b': builder.Append('\b'); break;
                        case 'f': builder.Append('\f'); break;
                        case 'n': builder.Append('\n'); break;
                        case 'r': builder.Append('\r'); break;
                        case 't': builder.Append('\t'); break;
                        case 'u':
                            if (at + 4 > text.Length) throw Error("short \\u escape");
                            int code;
                            if (!int.TryParse(text.Substring(at, 4), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out code))
                                throw Error("bad \\u escape");
                            builder.Append((char)code);
                            at += 4;
                            break;
                        default: throw Error("unknown escape \\" + e);
                    }
                }
            }

            object ReadNumber()
            {
                var start = at;
                if (text[at] == '-') at++;
                var integral = true;
                while (!AtEnd)
                {
                    var c = text[at];
                    if (c >= '0' && c <= '9') { at++; continue; }
                    if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') { integral = false; at++; continue; }
                    break;
                }
                var token = text.Substring(start, at - start);
                long whole;
                if (integral && long.TryParse(token, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out whole))
                    return whole;
                double number;
                if (!double.TryParse(token, NumberStyles.Float, CultureInfo.InvariantCulture, out number))
                    throw Error("bad number '" + token + "'");
                return number;
            }
        }
    }

    /// <summary>Typed reads of a parsed JSON object, tolerant of fields a newer server adds.</summary>
    internal static class JsonFields
    {
        public static Dictionary<string, object> AsObject(object value)
        {
            return value as Dictionary<string, object>;
        }

        public static object Get(Dictionary<string, object> o, string key)
        {
            object value;
            return o != null && o.TryGetValue(key, out value) ? value : null;
        }

        public static string String(Dictionary<string, object> o, string key)
        {
            return Get(o, key) as string;
        }

        public static long? Long(Dictionary<string, object> o, string key)
        {
            var value = Get(o, key);
            if (value is long) return (long)value;
            if (value is double) return (long)(double)value;
            return null;
        }

        public static double? Double(Dictionary<string, object> o, string key)
        {
            var value = Get(o, key);
            if (value is long) return (long)value;
            if (value is double) return (double)value;
            return null;
        }

        public static bool? Bool(Dictionary<string, object> o, string key)
        {
            var value = Get(o, key);
            return value is bool ? (bool?)(bool)value : null;
        }

        public static DateTime? Time(Dictionary<string, object> o, string key)
        {
            var text = String(o, key);
            DateTime time;
            if (text != null && DateTime.TryParse(text, CultureInfo.InvariantCulture,
                    DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal, out time))
                return time;
            return null;
        }

        public static string FormatTime(DateTime utc)
        {
            return utc.ToUniversalTime().ToString("yyyy-MM-dd'T'HH:mm:ss.fff'Z'", CultureInfo.InvariantCulture);
        }
    }
}
