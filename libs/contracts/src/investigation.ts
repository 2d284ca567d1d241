import { z } from 'zod';

export interface InvestigationFinding {
  title: string;
  description: string;
  evidence: string[];
}

/** An investigation report as it travels on `investigations.v1` (updated_at in epoch millis). */
export interface InvestigationRecord {
  id: string;
  status: string;
  outcome: string | null;
  headline: string;
  summary: string;
  confidence: string;
  recommended_action: string;
  risk_score: number;
  findings: InvestigationFinding[];
  person: {
    name: string;
    email: string;
    role: string | null;
    department: string | null;
    manager: string | null;
  };
  detection: { id: string; name: string };
  updated_at: number;
}

/** The largest epoch millis a JavaScript Date represents (year 275760). */
const MAX_DATE_MS = 8_640_000_000_000_000;

const text = (max: number) => z.string().trim().min(1).max(max);
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => v || null);

export const investigationInput = z
  .object({
    id: text(200),
    status: text(50),
    outcome: optionalText(50),
    headline: text(500),
    summary: z.string().max(20_000),
    confidence: text(50),
    recommended_action: z.string().max(5000),
    risk_score: z.number().finite().min(0).max(1_000_000),
    findings: z
      .array(
        z
          .object({
            title: text(500),
            description: z.string().max(10_000),
            evidence: z.array(z.string().max(10_000)).max(200).default([]),
          })
          .strict(),
      )
      .max(200)
      .default([]),
    person: z
      .object({
        name: text(300),
        email: z.email().max(320),
        role: optionalText(200),
        department: optionalText(200),
        manager: optionalText(300),
      })
      .strict(),
    detection: z.object({ id: text(200), name: text(500) }).strict(),
    // Bounded by what a Date can hold: the read models format it as an ISO timestamp.
    updated_at: z.union([
      z.number().int().positive().max(MAX_DATE_MS),
      z.iso.datetime({ offset: false }),
    ]),
  })
  .strict();

export function parseInvestigation(
  input: unknown,
):
  | { ok: true; value: InvestigationRecord }
  | { ok: false; errors: { path: string; message: string }[] } {
  const result = investigationInput.safeParse(input);
  if (!result.success) {
    return {
      ok: false,
      errors: result.error.issues.map((issue) => ({
        path: issue.path.join('.') || '(record)',
        message: issue.message,
      })),
    };
  }
  const v = result.data;
  return {
    ok: true,
    value: {
      ...v,
      person: { ...v.person, email: v.person.email.toLowerCase() },
      updated_at: typeof v.updated_at === 'number' ? v.updated_at : Date.parse(v.updated_at),
    },
  };
}
