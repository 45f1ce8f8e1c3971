/**
 * A strict parser of the Prometheus text exposition format (0.0.4), for tests of `/metrics`: prom-client has no
 * parser. Anything the format does not allow throws (a malformed name, label or value, an unknown TYPE, a family
 * typed twice or after its samples, a sample outside the family last typed, a series given twice, a histogram whose
 * buckets are not cumulative or do not end at `+Inf` = `_count`), so a test that parses the output also proves
 * Prometheus could read it.
 */

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface Sample {
  /** The sample's own name (`…_bucket`, `…_sum`, `…_count` for histograms). */
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface MetricFamily {
  readonly name: string;
  readonly type: MetricType;
  readonly help?: string;
  readonly samples: readonly Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES: readonly MetricType[] = ['counter', 'gauge', 'histogram', 'summary', 'untyped'];

/** Why the text is not a valid exposition. */
function invalid(why: string): Error {
  return new Error(`not Prometheus text format: ${why}`);
}

/** Parse an exposition into its families, by name, in order. */
export function parsePrometheus(text: string): Map<string, MetricFamily> {
  interface Building {
    name: string;
    type: MetricType;
    help?: string;
    samples: Sample[];
  }
  const families = new Map<string, Building>();
  const series = new Set<string>();
  let current: Building | undefined;
  if (text !== '' && !text.endsWith('\n')) throw invalid('the exposition must end with a line feed');
  const lines = text.split('\n');
  lines.pop();
  lines.forEach((line, index) => {
    const where = `line ${index + 1}: ${JSON.stringify(line.slice(0, 120))}`;
    if (line.trim() === '') return;
    if (line.startsWith('#')) {
      const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!meta) return; // a plain comment
      const [, kind, name = '', rest = ''] = meta;
      if (!METRIC_NAME.test(name)) throw invalid(`bad metric name in ${where}`);
      let family = families.get(name);
      if (kind === 'TYPE') {
        if (!TYPES.includes(rest as MetricType)) throw invalid(`unknown type in ${where}`);
        if (family && (family.type !== 'untyped' || family.samples.length > 0)) {
          throw invalid(`TYPE given twice or after samples in ${where}`);
        }
        family ??= { name, type: 'untyped', samples: [] };
        family.type = rest as MetricType;
      } else {
        if (family?.help !== undefined) throw invalid(`HELP given twice in ${where}`);
        family ??= { name, type: 'untyped', samples: [] };
        family.help = unescapeText(rest, false, where);
      }
      families.set(name, family);
      current = family;
      return;
    }
    const sample = parseSample(line, where);
    const key = `${sample.name}${JSON.stringify(Object.entries(sample.labels).sort())}`;
    if (series.has(key)) throw invalid(`series given twice in ${where}`);
    series.add(key);
    const family = current && belongsTo(sample.name, current) ? current : undefined;
    if (family) {
      family.samples.push(sample);
      return;
    }
    if (families.has(sample.name)) throw invalid(`sample away from its family in ${where}`);
    const untyped: Building = { name: sample.name, type: 'untyped', samples: [sample] };
    families.set(sample.name, untyped);
    current = untyped;
  });
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);
  return families as Map<string, MetricFamily>;
}

function belongsTo(sampleName: string, family: { name: string; type: MetricType }): boolean {
  if (sampleName === family.name) return family.type !== 'histogram';
  if (family.type === 'histogram')
    return [`${family.name}_bucket`, `${family.name}_sum`, `${family.name}_count`].includes(sampleName);
  if (family.type === 'summary') return [`${family.name}_sum`, `${family.name}_count`].includes(sampleName);
  return false;
}

function parseSample(line: string, where: string): Sample {
  const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)?.[0];
  if (name === undefined) throw invalid(`bad metric name in ${where}`);
  let rest = line.slice(name.length);
  const labels: Record<string, string> = {};
  if (rest.startsWith('{')) {
    rest = rest.slice(1);
    while (!rest.startsWith('}')) {
      const label = /^([^=]*)="/.exec(rest);
      if (!label || !LABEL_NAME.test(label[1] ?? '')) throw invalid(`bad label in ${where}`);
      const labelName = label[1] ?? '';
      if (labelName in labels) throw invalid(`label given twice in ${where}`);
      rest = rest.slice(label[0].length);
      let raw = '';
      for (;;) {
        const char = rest[0];
        if (char === undefined) throw invalid(`unterminated label value in ${where}`);
        if (char === '"') break;
        if (char === '\\') {
          raw += rest.slice(0, 2);
          rest = rest.slice(2);
        } else {
          raw += char;
          rest = rest.slice(1);
        }
      }
      labels[labelName] = unescapeText(raw, true, where);
      rest = rest.slice(1);
      if (rest.startsWith(',')) rest = rest.slice(1);
      else if (!rest.startsWith('}')) throw invalid(`expected , or } in ${where}`);
    }
    rest = rest.slice(1);
  }
  const fields = /^ (\S+)(?: (-?\d+))?$/.exec(rest);
  if (!fields) throw invalid(`expected " value [timestamp]" in ${where}`);
  return { name, labels, value: parseValue(fields[1] ?? '', where) };
}

function parseValue(text: string, where: string): number {
  // Prometheus reads values with Go's ParseFloat: Inf, Infinity and NaN in any case (prom-client writes `Nan`).
  if (/^\+?inf(?:inity)?$/i.test(text)) return Number.POSITIVE_INFINITY;
  if (/^-inf(?:inity)?$/i.test(text)) return Number.NEGATIVE_INFINITY;
  if (/^nan$/i.test(text)) return Number.NaN;
  if (!/^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/.test(text)) throw invalid(`bad value in ${where}`);
  return Number(text);
}

/** Label values may escape `\\`, `\"` and `\n`; HELP text `\\` and `\n`. Nothing else. */
function unescapeText(text: string, labelValue: boolean, where: string): string {
  return text.replace(/\\(.?)/g, (_, char: string) => {
    if (char === '\\') return '\\';
    if (char === 'n') return '\n';
    if (char === '"' && labelValue) return '"';
    throw invalid(`bad escape \\${char} in ${where}`);
  });
}

function checkHistogram(family: { name: string; samples: Sample[] }): void {
  const groups = new Map<string, { buckets: [number, number][]; count?: number; sum?: number }>();
  for (const sample of family.samples) {
    const { le, ...rest } = sample.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    const group = groups.get(key) ?? { buckets: [] };
    groups.set(key, group);
    if (sample.name.endsWith('_bucket')) {
      if (le === undefined) throw invalid(`${family.name}: a bucket without le`);
      group.buckets.push([parseValue(le, `le of ${family.name}`), sample.value]);
    } else if (sample.name.endsWith('_count')) group.count = sample.value;
    else group.sum = sample.value;
  }
  for (const [key, group] of groups) {
    const where = `${family.name}${key}`;
    if (group.count === undefined || group.sum === undefined) throw invalid(`${where}: no _count or _sum`);
    let previous: [number, number] = [Number.NEGATIVE_INFINITY, 0];
    for (const bucket of group.buckets) {
      if (bucket[0] <= previous[0] || bucket[1] < previous[1]) {
        throw invalid(`${where}: buckets not increasing and cumulative`);
      }
      previous = bucket;
    }
    if (previous[0] !== Number.POSITIVE_INFINITY || previous[1] !== group.count) {
      throw invalid(`${where}: the last bucket must be le="+Inf" and equal _count`);
    }
  }
}

/** The value of the one sample of `family` named `name` (default the family's) whose labels include `labels`. */
export function sampleValue(
  families: ReadonlyMap<string, MetricFamily>,
  family: string,
  labels: Readonly<Record<string, string>> = {},
  name = family,
): number | undefined {
  const matches = (families.get(family)?.samples ?? []).filter(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (matches.length > 1) throw new Error(`${matches.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return matches[0]?.value;
}
