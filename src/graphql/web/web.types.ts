import { Field, ID, ObjectType } from 'type-graphql';
import { createWebPageSchema, enrichmentSchema, scrapeSchema } from '../../domain/web/web.schemas';
import { inputType } from '../shared/input-type';
import { SocialLinkType } from '../accounts/user.types';

export const ScrapeInput = inputType('ScrapeInput', scrapeSchema);
export type ScrapeInput = InstanceType<typeof ScrapeInput>;

@ObjectType('ScrapeResult', { description: "A page's readable text" })
export class ScrapeResultType {
  @Field({ description: 'The normalized URL the text was read from (after redirects)' })
  url: string;

  @Field(() => String, { nullable: true })
  title: string | null;

  @Field({ description: 'Paragraphs separated by blank lines; with an objective, only what serves it' })
  text: string;
}

export const EnrichmentInput = inputType('EnrichmentInput', enrichmentSchema);
export type EnrichmentInput = InstanceType<typeof EnrichmentInput>;

@ObjectType('ProfileSuggestion', { description: 'Suggested user fields, in their shapes; null where the sources say nothing' })
export class ProfileSuggestionType {
  @Field(() => String, { nullable: true })
  intro: string | null;

  @Field(() => String, { nullable: true })
  location: string | null;

  @Field(() => [SocialLinkType])
  socials: SocialLinkType[];

  @Field(() => [String], { description: 'Suggested intents, as descriptions' })
  intents: string[];
}

@ObjectType('EnrichmentSource')
export class EnrichmentSourceType {
  @Field({ description: 'website, linkedin, twitter, github or telegram' })
  label: string;

  @Field()
  url: string;
}

@ObjectType('EnrichmentFailure')
export class EnrichmentFailureType extends EnrichmentSourceType {
  @Field({ description: 'The refusal code, as the scrape route would answer it' })
  reason: string;

  @Field()
  detail: string;
}

@ObjectType('EnrichmentSources')
export class EnrichmentSourcesType {
  @Field(() => [EnrichmentSourceType])
  read: EnrichmentSourceType[];

  @Field(() => [EnrichmentFailureType])
  failed: EnrichmentFailureType[];
}

@ObjectType('Enrichment', { description: 'A researched profile suggestion; nothing is saved' })
export class EnrichmentType {
  @Field(() => ProfileSuggestionType)
  suggestion: ProfileSuggestionType;

  @Field(() => EnrichmentSourcesType)
  sources: EnrichmentSourcesType;
}

export const CreateWebPageInput = inputType('CreateWebPageInput', createWebPageSchema);
export type CreateWebPageInput = InstanceType<typeof CreateWebPageInput>;

@ObjectType('WebPage', { description: 'A web page node; its id is stream-id-like, so it can be an index item' })
export class WebPageType {
  @Field(() => ID)
  id: string;

  @Field()
  url: string;

  @Field(() => String, { nullable: true })
  title: string | null;

  @Field()
  content: string;

  @Field()
  createdAt: Date;

  /** Resolved through the users loader. */
  createdById: string;
}
