import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { SocialLinkType } from '../accounts/user.types';

@InputType('ScrapeInput')
export class ScrapeInput {
  @Field({ description: 'The page to read (http or https; a URL without scheme is read as https)' })
  url: string;

  @Field(() => String, { nullable: true, description: 'What to look for (at most 1000 characters); narrows the text returned' })
  objective?: string | null;
}

@ObjectType('ScrapeResult', { description: "A page's readable text" })
export class ScrapeResultType {
  @Field({ description: 'The normalized URL the text was read from (after redirects)' })
  url: string;

  @Field(() => String, { nullable: true })
  title: string | null;

  @Field({ description: 'Paragraphs separated by blank lines; with an objective, only what serves it' })
  text: string;
}

@InputType('EnrichmentInput')
export class EnrichmentInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true, description: 'Profile URL or handle' })
  linkedin?: string | null;

  @Field(() => String, { nullable: true, description: 'Profile URL or handle' })
  twitter?: string | null;

  @Field(() => String, { nullable: true, description: 'Profile URL or user name' })
  github?: string | null;

  @Field(() => String, { nullable: true, description: 'Profile URL or handle' })
  telegram?: string | null;

  @Field(() => [String], { nullable: true, description: 'Personal or company sites (at most 5)' })
  websites?: string[] | null;
}

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

@InputType('CreateWebPageInput')
export class CreateWebPageInput {
  @Field()
  url: string;

  @Field(() => String, { nullable: true, description: 'Only with content' })
  title?: string | null;

  @Field(() => String, { nullable: true, description: 'The readable text; omitted, the page is fetched' })
  content?: string | null;
}

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
