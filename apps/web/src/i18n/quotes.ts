/**
 * Russian typography nests quotes as «…„…“…»: a name that carries its own «» (an organisation
 * called «Альфа») shown inside a message that quotes it would otherwise read «…«Альфа»…». Applied
 * to every translated text (an i18next post-processor), so no message has to know what its names
 * hold. Quotes that do not nest are left as they are.
 */
export function nestQuotes(text: string): string {
  if (!text.includes('«')) return text;
  let depth = 0;
  let result = '';
  for (const char of text) {
    if (char === '«') {
      result += depth === 0 ? '«' : '„';
      depth += 1;
    } else if (char === '»' && depth > 0) {
      depth -= 1;
      result += depth === 0 ? '»' : '“';
    } else {
      result += char;
    }
  }
  return result;
}

export const nestedQuotes = {
  type: 'postProcessor' as const,
  name: 'nestedQuotes',
  process: (value: string) => nestQuotes(value),
};
