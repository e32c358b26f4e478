/**
 * POST /sites/{code}/contact/ (content-backend-api.md, "POST /sites/{code}/contact/").
 *
 * Bots must learn nothing: a honeypot hit or a too-fast submission gets the same 201 as a genuine one and
 * is only recorded (dropped: true) and logged as a warning. The honeypot is checked before validation so
 * that even a bot sending garbage gets the 201.
 */
import type { Request, Response } from "express";
import { z } from "zod";
import type { ContactSubmissionRecord } from "./model.js";
import type { DemoState } from "./state.js";

/** Below this many milliseconds between page load and submit, a human cannot have filled the form. */
export const MIN_ELAPSED_MS = 2000;

const MSG = {
  required: "Ce champ est obligatoire.",
  invalid: "Valeur invalide.",
  email: "Saisissez une adresse e-mail valide.",
  phone: "Saisissez un numéro de téléphone valide.",
  consent: "Vous devez accepter que vos données soient utilisées pour répondre à votre demande.",
  integer: "Saisissez un nombre entier positif.",
} as const;

const requiredOrInvalid = (issue: { input: unknown }): string =>
  issue.input === undefined || issue.input === null ? MSG.required : MSG.invalid;

const text = (max: number) =>
  z
    .string({ error: requiredOrInvalid })
    .trim()
    .min(1, { error: MSG.required })
    .max(max, { error: `Ce champ ne peut pas dépasser ${max} caractères.` });

export const contactSchema = z.object({
  name: text(200),
  email: z
    .string({ error: requiredOrInvalid })
    .trim()
    .pipe(z.email({ error: MSG.email }).max(254, { error: MSG.email })),
  // An empty phone field is sent as "" by some forms; the contract says null.
  phone: z.preprocess(
    (v) => (v === undefined || (typeof v === "string" && v.trim() === "") ? null : v),
    z
      .string({ error: MSG.phone })
      .trim()
      .regex(/^\+?[0-9 .()-]{6,25}$/, { error: MSG.phone })
      .nullable(),
  ),
  message: text(5000),
  consent: z.literal(true, { error: MSG.consent }),
  website: z.string({ error: MSG.invalid }).max(500).default(""),
  elapsed_ms: z.number({ error: requiredOrInvalid }).int({ error: MSG.integer }).nonnegative({ error: MSG.integer }),
  page: z.string({ error: MSG.invalid }).max(500).nullable().default(null),
});

export type ValidContact = z.infer<typeof contactSchema>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export function contactHandler(state: DemoState) {
  return (req: Request<{ code: string }>, res: Response): void => {
    const code = req.params.code;
    if (!state.activeSite(code)) {
      res.status(404).json({ detail: "Not found." });
      return;
    }
    const body: unknown = req.body;
    const record = (dropped: boolean, reason: ContactSubmissionRecord["reason"]): void => {
      state.submissions.push({ code, receivedAt: new Date().toISOString(), body, dropped, reason });
    };
    const accepted = { status: "received" };

    if (isRecord(body) && typeof body.website === "string" && body.website.trim() !== "") {
      record(true, "honeypot");
      console.warn(`demo-backend: contact submission for ${code} dropped: honeypot field filled`);
      res.status(201).json(accepted);
      return;
    }

    const parsed = contactSchema.safeParse(body);
    if (!parsed.success) {
      const flat = z.flattenError(parsed.error);
      const errors: Record<string, string[]> = {};
      for (const [field, messages] of Object.entries(flat.fieldErrors)) {
        if (Array.isArray(messages) && messages.length > 0) errors[field] = messages;
      }
      if (flat.formErrors.length > 0) errors.non_field_errors = ["Le corps de la requête doit être un objet JSON."];
      res.status(400).json({ errors });
      return;
    }

    if (parsed.data.elapsed_ms < MIN_ELAPSED_MS) {
      record(true, "too_fast");
      console.warn(`demo-backend: contact submission for ${code} dropped: too fast (${parsed.data.elapsed_ms} ms)`);
    } else {
      record(false, null);
    }
    res.status(201).json(accepted);
  };
}
