/**
 * The recall query's dates, written out for the keyword signal. People and agents type a date
 * as "21.01.2024", "2024-01-21", "1/21/2024", "7 Jan 2024" or "Jan 7th", and memories tend to
 * say "21 January 2024"; Postgres's english parser keeps "21.01.2024" as one lexeme and stems
 * "Jan" and "January" apart ('jan', 'januari'), so none of those forms shares a lexeme with the
 * written-out date. keywordQuery rewrites them as "<day> <Month> <year>" before the query's
 * lexemes are taken. The query's embedding is of the text as given.
 *
 * Only what is unambiguously a date is rewritten: a month's abbreviation next to a number
 * ("Jan" alone may be a name), numeric dates whose day and month are in range. Slashed dates
 * are month first (US) unless the first number cannot be a month; dotted ones day first.
 */

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

const ABBREVIATIONS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

const ABBREVIATION = "(jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\\.?";
const MONTH_NAME = `(${MONTHS.join("|")})`;
const ORDINAL = "(?:st|nd|rd|th)";

function written(day: number, month: number, year: string): string | undefined {
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  const fullYear = year.length === 2 ? `20${year}` : year;
  return `${day} ${MONTHS[month - 1]} ${fullYear}`;
}

export function keywordQuery(query: string): string {
  return (
    query
      // 2024-01-21
      .replace(
        /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g,
        (m, y: string, mo: string, d: string) => written(+d, +mo, y) ?? m,
      )
      // 21.01.2024, 21.1.24: day first
      .replace(
        /\b(\d{1,2})\.(\d{1,2})\.(\d{4}|\d{2})\b/g,
        (m, d: string, mo: string, y: string) => written(+d, +mo, y) ?? m,
      )
      // 1/21/2024: month first, unless the first number is no month (21/1/2024)
      .replace(/\b(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})\b/g, (m, a: string, b: string, y: string) =>
        +a > 12 ? (written(+a, +b, y) ?? m) : (written(+b, +a, y) ?? m),
      )
      // "7 Jan", "7th Jan.", "Jan 7", "Jan. 2024": an abbreviation beside a number
      .replace(
        new RegExp(`\\b(\\d{1,2})(${ORDINAL})?(\\s+(?:of\\s+)?)${ABBREVIATION}(?![a-z])`, "gi"),
        (_m, d: string, _o, gap: string, a: string) =>
          `${d}${gap}${MONTHS[(ABBREVIATIONS[a.toLowerCase()] ?? 1) - 1]}`,
      )
      .replace(
        new RegExp(`\\b${ABBREVIATION}(\\s+)(\\d{1,4})`, "gi"),
        (_m, a: string, gap: string, n: string) =>
          `${MONTHS[(ABBREVIATIONS[a.toLowerCase()] ?? 1) - 1]}${gap}${n}`,
      )
      // "21st of January", "January 21st": the bare day, as a written date has it
      .replace(new RegExp(`\\b(\\d{1,2})${ORDINAL}(?=\\s+(?:of\\s+)?${MONTH_NAME}\\b)`, "gi"), "$1")
      .replace(new RegExp(`\\b${MONTH_NAME}(\\s+)(\\d{1,2})${ORDINAL}\\b`, "gi"), "$1$2$3")
  );
}
