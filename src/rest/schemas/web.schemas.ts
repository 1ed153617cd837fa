import { z } from 'zod';
import { named, nullable, SocialLink } from './schema-kit';

export const ScrapeResult = named('ScrapeResult', z.object({ url: z.string(), title: nullable(z.string()), text: z.string() }));

export const Enrichment = named(
  'Enrichment',
  z.object({
    suggestion: z.object({ intro: nullable(z.string()), location: nullable(z.string()), socials: z.array(SocialLink), intents: z.array(z.string()) }),
    sources: z.object({
      read: z.array(z.object({ label: z.string(), url: z.string() })),
      failed: z.array(z.object({ label: z.string(), url: z.string(), reason: z.string(), detail: z.string() })),
    }),
  }),
  'A researched profile suggestion; nothing is saved',
);
