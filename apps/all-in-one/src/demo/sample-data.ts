import { createHash } from 'node:crypto';

export type DemoFrequency = 'immediate' | 'threshold' | 'batch';

export interface DemoDetection {
  readonly id: string;
  readonly name: string;
  readonly source: string;
  readonly issueType: string;
  readonly frequency: DemoFrequency;
  /** For Threshold: notifications fire once the event count exceeds it. */
  readonly threshold: number | null;
}

/** An event as the ingest API takes it (DESIGN.md §3). */
export interface DemoEvent {
  readonly id: string;
  readonly detection_id: string;
  readonly detection_name: string;
  readonly issue_type: string;
  readonly employee_email: string;
  readonly employee_name: string;
  readonly asset_name: string;
  readonly happened: string;
  readonly risk_score: number;
  readonly source: string;
  readonly high_prevalence: boolean;
  readonly allowlisted: boolean;
}

/** An investigation report as the ingest API takes it. */
export interface DemoInvestigation {
  readonly id: string;
  readonly status: 'completed';
  readonly outcome: 'confirmed_risk' | 'no_risk';
  readonly headline: string;
  readonly summary: string;
  readonly confidence: string;
  readonly recommended_action: string;
  readonly risk_score: number;
  readonly findings: { title: string; description: string; evidence: string[] }[];
  readonly person: {
    name: string;
    email: string;
    role: string;
    department: string;
    manager: string;
  };
  readonly detection: { id: string; name: string };
  readonly updated_at: string;
}

export interface DemoScenario {
  readonly detections: readonly DemoDetection[];
  /** Sent in order, a pause apart: each wave is one recalculation per detection. */
  readonly waves: readonly (readonly DemoEvent[])[];
  readonly investigations: readonly DemoInvestigation[];
}

interface Person {
  name: string;
  email: string;
  role: string;
  department: string;
  manager: string;
}

const PEOPLE: readonly Person[] = [
  p('Ada Lovelace', 'ada.lovelace', 'Staff Engineer', 'Platform', 'Grace Hopper'),
  p('Alan Turing', 'alan.turing', 'Security Analyst', 'Security', 'Joan Clarke'),
  p('Katherine Johnson', 'katherine.johnson', 'Finance Lead', 'Finance', 'Dorothy Vaughan'),
  p('Linus Pauling', 'linus.pauling', 'Sales Engineer', 'Sales', 'Marie Curie'),
  p('Hedy Lamarr', 'hedy.lamarr', 'Product Designer', 'Design', 'Ada Lovelace'),
  p('Claude Shannon', 'claude.shannon', 'Data Scientist', 'Analytics', 'Alan Turing'),
  p('Radia Perlman', 'radia.perlman', 'Network Engineer', 'IT', 'Barbara Liskov'),
  p('Margaret Hamilton', 'margaret.hamilton', 'Engineering Manager', 'Engineering', 'Ken Thompson'),
];

function p(name: string, local: string, role: string, department: string, manager: string): Person {
  return { name, email: `${local}@example.com`, role, department, manager };
}

interface DetectionTemplate {
  name: string;
  source: string;
  issueType: string;
  frequency: DemoFrequency;
  threshold: number | null;
  assets: readonly string[];
  /** Events per wave. */
  waves: readonly number[];
  risk: readonly [number, number];
}

/**
 * Two detections per frequency mode. Threshold ones cross their threshold in the second wave;
 * Immediate ones notify on both waves; Batch ones send webhooks at once and a digest email at
 * the end of the (one-minute) batch window.
 */
const TEMPLATES: readonly DetectionTemplate[] = [
  {
    name: 'Impossible travel sign-in',
    source: 'okta',
    issueType: 'impossible_travel',
    frequency: 'immediate',
    threshold: null,
    assets: ['Okta SSO', 'Okta Admin Console'],
    waves: [2, 1],
    risk: [72, 95],
  },
  {
    name: 'Malware quarantined on endpoint',
    source: 'crowdstrike',
    issueType: 'malware_detected',
    frequency: 'immediate',
    threshold: null,
    assets: ['LAPTOP-7F3K2', 'LAPTOP-Q9D1M', 'MBP-HL-2023'],
    waves: [1, 2],
    risk: [60, 90],
  },
  {
    name: 'Mass download from Google Drive',
    source: 'google_workspace',
    issueType: 'mass_file_download',
    frequency: 'threshold',
    threshold: 3,
    assets: ['Drive: Finance FY25', 'Drive: Board decks', 'Drive: Payroll'],
    waves: [2, 3],
    risk: [40, 80],
  },
  {
    name: 'Secret pushed to a public repository',
    source: 'github',
    issueType: 'secret_exposed',
    frequency: 'threshold',
    threshold: 2,
    assets: ['github.com/acme/payments-api', 'github.com/acme/infra-terraform'],
    waves: [1, 2],
    risk: [70, 99],
  },
  {
    name: 'Root account console login',
    source: 'aws',
    issueType: 'root_account_usage',
    frequency: 'batch',
    threshold: null,
    assets: ['AWS account 4821-prod', 'AWS account 7713-staging'],
    waves: [1, 1],
    risk: [80, 97],
  },
  {
    name: 'OAuth app granted broad scopes',
    source: 'google_workspace',
    issueType: 'risky_oauth_grant',
    frequency: 'batch',
    threshold: null,
    assets: ['PDF Converter Pro', 'Calendar Sync Plus'],
    waves: [2, 1],
    risk: [30, 65],
  },
];

/** A small seeded generator (mulberry32): the same seed gives the same scenario. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A UUID-shaped id derived from the seed and a label, stable across runs with one seed. */
export function stableId(seed: number | 'demo', label: string): string {
  const hex = createHash('sha256').update(`${seed}:${label}`).digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The demo's detections, events (in waves) and investigations. Pure: the seed and `now` decide
 * everything; events happened in the hour before `now`.
 *
 * Detections and investigations have the same ids in every run: running the demo again tops
 * the same six detections up with new events (whose ids come from the seed) and updates the
 * same two investigations, rather than adding a copy of each.
 */
export function buildDemoScenario(seed: number, now: Date): DemoScenario {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const detections: DemoDetection[] = TEMPLATES.map((t) => ({
    id: stableId('demo', `detection:${t.name}`),
    name: t.name,
    source: t.source,
    issueType: t.issueType,
    frequency: t.frequency,
    threshold: t.threshold,
  }));
  const waveCount = Math.max(...TEMPLATES.map((t) => t.waves.length));
  const waves: DemoEvent[][] = Array.from({ length: waveCount }, () => []);
  let n = 0;
  TEMPLATES.forEach((template, d) => {
    const detection = detections[d];
    template.waves.forEach((count, w) => {
      for (let i = 0; i < count; i++) {
        const person = pick(PEOPLE);
        const [low, high] = template.risk;
        const minutesAgo = Math.floor(random() * 55) + 1;
        waves[w].push({
          id: stableId(seed, `event:${n++}`),
          detection_id: detection.id,
          detection_name: detection.name,
          issue_type: template.issueType,
          employee_email: person.email,
          employee_name: person.name,
          asset_name: pick(template.assets),
          happened: new Date(now.getTime() - minutesAgo * 60_000).toISOString(),
          risk_score: Math.round((low + random() * (high - low)) * 10) / 10,
          source: template.source,
          high_prevalence: random() < 0.2,
          allowlisted: false,
        });
      }
    });
  });
  for (const wave of waves) wave.sort((a, b) => a.happened.localeCompare(b.happened));
  // Each investigation is about a person the detection's events name: the first one's.
  const personIn = (detection: DemoDetection): Person => {
    const first = waves.flat().find((event) => event.detection_id === detection.id)!;
    return PEOPLE.find((person) => person.email === first.employee_email)!;
  };
  const investigations = [
    investigation(now, detections[0], personIn(detections[0]), 'confirmed_risk', random),
    investigation(now, detections[5], personIn(detections[5]), 'no_risk', random),
  ];
  return { detections, waves, investigations };
}

function investigation(
  now: Date,
  detection: DemoDetection,
  person: Person,
  outcome: 'confirmed_risk' | 'no_risk',
  random: () => number,
): DemoInvestigation {
  const risky = outcome === 'confirmed_risk';
  return {
    id: stableId('demo', `investigation:${detection.name}`),
    status: 'completed',
    outcome,
    headline: risky
      ? `${person.name} signed in from two countries 40 minutes apart`
      : `${person.name} granted a known calendar tool broad scopes`,
    summary: risky
      ? 'Sign-ins from Lisbon and Singapore within 40 minutes, the second from a new device and a hosting provider ASN. No travel is booked.'
      : 'The OAuth app is used by 40 colleagues, is verified by Google and asks for the scopes its calendar sync needs.',
    confidence: risky ? 'high' : 'medium',
    recommended_action: risky
      ? 'Reset the password, revoke active sessions and confirm with the person.'
      : 'No action needed; consider adding the app to the allowlist.',
    risk_score: Math.round((risky ? 85 + random() * 10 : 15 + random() * 10) * 10) / 10,
    findings: [
      {
        title: risky ? 'Impossible travel' : 'Widely used app',
        description: risky
          ? 'Two sign-ins 11,000 km apart in 40 minutes.'
          : 'The app is installed across the organization.',
        evidence: risky
          ? ['Okta: sign-in from 185.220.101.4 (SG)', 'Okta: sign-in from 85.246.1.10 (PT)']
          : ['Google Workspace: 40 users granted the same app'],
      },
    ],
    person: { ...person },
    detection: { id: detection.id, name: detection.name },
    updated_at: now.toISOString(),
  };
}
