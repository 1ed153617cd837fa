/**
 * The vocabulary of things people seek and offer. Each line:
 *
 *   id < parent [flags] | things | people who provide it | verbs for providing it
 *
 * Flags: `*` mutual (peers seek each other: a tennis partner, a cofounder, an integration),
 * `%` an activity (mutual only when the text asks for company: a partner, a buddy, someone to
 * do it with; otherwise the activity is what the intent is about, e.g. gear for sale),
 * `!` the children are alternatives (asking for one and being offered a sibling is a mismatch),
 * `~0.5` weight (how much the concept says about a need; generic ones weigh less),
 * `#` topic only (a domain or genre: shared by both sides, never a side on its own).
 *
 * The words are general language for roles, services, goods and activities; they carry no
 * knowledge of any particular intent.
 */
const LEXICON = `
# money and companies
finance # | finance, financial
funding < finance | funding, investment, capital, financing, seed round, pre-seed round, series a round, seed funding, venture funding, cheque, cheques, check size, ticket, tickets, term sheet | investor, angel, angels, angel investor, business angel, vc, vcs, venture capitalist, venture capital, venture fund, micro vc, family office, backer | invest, back, fund
startup < company ~0.6 | startup, start-up, early-stage company, portfolio company, deal flow, deals | founder, founders, founding team, entrepreneur | found
company ~0.3 # | company, business, firm, organisation, organization
cofounder < startup * ~0.7 | cofounder, co-founder, co founder, founding partner, cofounding | | team up
banking < finance ! | banking partner, bank partner, banking, baas, banking-as-a-service, banking as a service, sponsor bank, banking licence, banking license, iban, ibans, deposit account, deposit accounts, card issuing, e-money licence, lending licence, lending license, emi licence, payment licence, safeguarding | bank, banks, sponsor bank, baas provider, partner bank |
personal-loan | personal loan, consolidate debt, debt consolidation, credit card debt, payday loan, mortgage | lender, lenders, loan officer, mortgage broker |
regulatory < compliance | licensing, licence application, license application, regulatory advice, regulatory, psd2, emi application | regulatory consultant, ex-regulator, ex-regulators, former regulator |
compliance ! | compliance, aml, anti-money laundering, kyc, sanctions screening | compliance officer, compliance lead, compliance consultant |
mlro < compliance | mlro, money laundering reporting officer, money-laundering reporting officer, head of aml, aml officer, head of compliance | mlro, money laundering reporting officer, money-laundering reporting officer, compliance officer |
aml-analyst < compliance | kyc review, kyc reviews, transaction monitoring, alert review | aml analyst, kyc analyst, compliance analyst |
dpo < compliance | data protection, gdpr | dpo, data protection officer, privacy officer |
accounting < finance | accounting, bookkeeping, tax filing, tax return, payroll service, audit | accountant, bookkeeper, auditor, cfo, fractional cfo |
legal ! | legal advice, legal counsel, contract review | lawyer, attorney, solicitor, counsel, legal counsel, paralegal |

# work
job ~0.5 | job, jobs, role, roles, position, positions, opening, openings, vacancy, vacancies, employment, full-time role, studio role, next role, paid work, contract work, freelance work, work in, career opportunity | employer, hiring manager, recruiter |
internship < job | internship, internships, placement | |

# software and engineering
engineering < tech ! | engineering, software development, development, coding, programming, integration development, api development, zapier apps, public apis, build integrations, dev work, prototype, prototyping | engineer, engineers, developer, developers, programmer, programmers, software engineer, backend engineer, frontend engineer, full-stack engineer, fullstack developer, technical founder, cto, technical cofounder | code, program, develop
gameplay < engineering | gameplay programming, player mechanics, game mechanics, gameplay systems | gameplay programmer, gameplay engineer, game programmer |
frontend < engineering | frontend, front-end, front end, ui engineering, web frontend | frontend developer, front-end developer, frontend engineer, frontend contributors |
backend < engineering | backend, back-end, infrastructure, api, apis, distributed systems | backend developer, backend engineer, infrastructure engineer |
mobile-dev < engineering | mobile development, ios development, android development | mobile developer, ios developer, android developer |
devops < engineering | devops, sre, kubernetes, cloud infrastructure | devops engineer, sre |
data-science < engineering | data science, analytics, data analysis, data engineering | data scientist, data analyst, data engineer |
ml < engineering | machine learning, ml, deep learning, ai models, model training, pretraining, fine-tuning, speech recognition, asr, nlp models, language models, llm, llms, retrieval, rag | ml engineer, machine learning engineer, ml researcher, ml partners, machine learning partners, ai engineer |
proglang ! # | programming language |
lang-csharp < proglang | c#, csharp, .net | c# developer |
lang-cpp < proglang | c++, cpp | c++ programmer, c++ developer |
lang-rust < proglang | rust | rust engineer, rust developer, rustacean |
lang-python < proglang | python | python developer, pythonista |
lang-js < proglang | javascript, js, typescript, ts, node.js, nodejs, react, vue, angular | javascript developer, react developer |
lang-java < proglang | java, kotlin, jvm | java developer |
lang-go < proglang | golang, go lang | go developer |
lang-swift < proglang | swift, objective-c | swift developer |
lang-php < proglang | php, laravel, wordpress | php developer |
lang-ruby < proglang | ruby, rails | ruby developer |
engine ! # | game engine |
engine-unity < engine | unity, unity3d | unity developer |
engine-unreal < engine | unreal, unreal engine, ue4, ue5, blueprints | unreal developer |
engine-godot < engine | godot | godot developer |
oss-contribution < engineering | contribution, contributions, pull request, pull requests, good first issue, good first issues, open-source contribution, open source contribution, patches | contributor, contributors, frontend contributors, open-source contributor | contribute
oss-project < engineering | open-source library, open source library, open-source project, open source project, open-source tool, open source tool, open-source annotation tool, repo, repository, library | maintainer, maintainers, core maintainer | maintain
compute < tech | compute, gpu, gpus, gpu hours, gpu-hours, a100, a100s, h100, h100s, tpu, cluster, gpu node, node, instances, cloud credits, spare capacity, gpu capacity, compute credits | cloud provider, gpu reseller, reseller |
software # | software, saas, platform, tool, tools, app, application, product
scheduling < software | scheduling, scheduling software, dispatch, dispatch software, dispatch tools, field service, field-service, field teams, booking software, rostering | |
payroll < software | payroll, payroll software, payroll tools | |
crm < software | crm, crms, crm tools, customer relationship management | |
invoicing < software | invoicing, invoicing software, billing software, invoices, accounting software | |
cs-platform < software | customer success platform, customer success software, churn tool | |
integration < software * ~0.6 | integration, integrations, integration partner, integration partners, technology partner, app marketplace, marketplace listing, co-marketing, comarketing | | integrate
pricing # | pricing, pricing change, pricing changes, billing, usage-based billing, usage-based pricing, per-seat, per seat, monetisation, monetization, pricing model
security # | security, soc 2, soc2, iso 27001, pentest, compliance automation, infosec, cybersecurity

# design, media and content
art ! | art, artwork, visual art | artist, artists |
pixel-art < art | pixel art, pixel-art, sprite, sprites, sprite sheet, sprite sheets, spritesheet, tileset, tilesets, low-res, low res, pixel animation, 16-bit, 8-bit, 32x32, 16x16, 16/32 px | pixel artist, sprite artist | 
art-3d < art | 3d art, 3d modelling, 3d modeling, 3d environment, 3d environments, blender, substance painter, maya, zbrush, 3d assets | 3d artist, 3d environment artist, environment artist, 3d modeler |
technical-art < art | technical art, shaders, shader, vfx, pipeline tools, tech art | technical artist, tech artist, vfx artist |
illustration < art | illustration, illustrations, cover art, album art, album artwork, artwork, record sleeve, record sleeves, gig poster, gig posters, poster, posters, hand-drawn, hand-inked, drawing | illustrator, illustrators | draw, illustrate
concept-art < art | concept art | concept artist |
ui-art < art | ui art, game ui, ui design, ux design, ux, ui | ui artist, ux designer, ui designer, product designer |
animation < art | animation, animations, 2d animation, motion graphics | animator, animators | animate
photography < media | photography, photo shoot, photo shoots, promo shoot, promo shoots, headshots, photos, live photos | photographer, photographers | photograph, shoot
video < media | video editing, video production, filming, videography | videographer, video editor, filmmaker | film, edit video
web-design < design | website, websites, web design, marketing site, marketing sites, landing site, webflow, framer, squarespace, no-code web | web designer, webflow designer, webflow developer, web developer, no-code web designer, no-code designer |
copywriting < marketing | copywriting, copy, landing page copy, onboarding emails, case studies, content writing, blog posts | copywriter, content writer, writer | write copy
translation | translation, localisation, localization, subtitles | translator, translators, interpreter | translate

# games
games # | game, games, video game, video games, indie game, indie games, title, titles, demo, wishlists, steam page, game jam
publishing < games | publishing, publishing deal, console ports, porting, ports, game marketing, marketing and ports | publisher, publishers, game publisher, indie publisher, label | publish, sign
game-studio < games ~0.6 | game studio, indie studio, studio, solo dev, solo developer, indie developer, game developer, game developers | indie dev, game dev, indie studio |
testing ! | testing, test sessions | tester, testers |
playtesting < testing | playtest, playtests, playtesting, playtest group, playtest groups, playtest sessions, unreleased, feedback sessions | playtester, playtesters, beta tester, beta testers | playtest
qa < testing | qa, quality assurance, qa testing, certification, console certification, trc, lotcheck, test plans, bug databases, bug database, regression testing, bug testing | qa tester, qa engineer, qa analyst |
user-research < testing | user research, usability testing, user interviews | ux researcher, user researcher |
audio ! | audio | audio engineer, sound engineer |
composition < audio | composition, soundtrack, soundtracks, score, scores, scoring, adaptive music, interactive score, interactive scores, original music, music for games, game music, film music | composer, composers, game composer | compose, write music
sound-design < audio | sound design, sfx, sound effects, foley, sfx packs, audio implementation | sound designer, sound designers, foley artist |
mixing < audio | mixing, mix, mixes, mixdown | mixing engineer, mix engineer, mixer engineer | mix
mastering < audio | mastering, masters | mastering engineer | master
recording < audio | recording studio, studio recording, tracking session | recording engineer |

# music performance
musician ! | musician, musicians | musician, musicians |
drums < musician | drums, drumming, drum kit | drummer, drummers, percussionist |
bass < musician | bass, upright bass, double bass, bass guitar | bassist, bass player, upright bass player |
guitar < musician | guitar, guitars, lead guitar | guitarist, guitar player |
vocals < musician | vocals, singing, backing vocals | vocalist, singer, frontman, frontwoman |
keys < musician | keyboard, keyboards | keyboardist, pianist, keys player, piano player |
songwriting < musician | songwriting, acoustic originals, originals | singer-songwriter, singer-songwriters, singer songwriter, songwriter, songwriters |
djing < musician | dj set, dj sets, djing | dj, djs |
band | band, bands, trio, quartet, ensemble, group project | band members, bandmates | 
gig < events | gig, gigs, residency, residencies, live set, live sets, club night, club nights, private events, open mic | venue, venues, festival, festivals, promoter, booker, booking agent | book
music-label < music | record label, label services, distribution deal | record label, label |

# research and learning
research # | research, paper, papers, thesis, dissertation, ablations, experiments, publication, acl, emnlp, neurips, icml, conference submission, phd, academic, academia
data < research ! | recorded, dataset, datasets, data set, corpus, corpora, annotated corpus, transcribed audio, transcriptions, recordings, audio data, speech data, text data, labelled data, labeled data, training data, sentiment dataset, hours of audio | data provider |
annotation < data | annotation, annotations, labelling, labeling, transcription | annotator, annotators, labeler, labelers, native-speaker annotators, transcriber | annotate, label, transcribe
collaboration < research * ~0.6 | collaboration, collaborations, research collaboration, co-authorship, coauthorship | collaborator, collaborators, co-author, coauthor, research partner | co-author, coauthor, collaborate
mentoring < guidance | mentoring, mentorship, coaching, guidance, advice, supervision, career advice | mentor, mentors, coach, coaches, advisor, adviser, supervisor | mentor, coach, supervise, advise, guide
mentee | mentee, mentees | mentee, mentees, protege |
reviewing < academic-service | reviewing, peer review, paper reviews, program committee, program committees, programme committee, pc member | reviewer, reviewers, referee, referees | review
speaking < events | talk, talks, keynote, keynotes, presentation, invited talk, guest lecture, war stories | speaker, speakers, keynote speaker, invited speaker, presenter | give talk, give talks, talk about, giving talk
event < events ~0.7 | event, events, meetup, meetups, conference, conferences, workshop, workshops, reading group, reading groups, seminar, summit, hackathon, lineup | organiser, organizer, organisers, organizers, host | organise, organize, host, co-organise, co-organize
tutoring < guidance | tutoring, lessons, teaching, classes, course, courses, training course, training courses, online course, bootcamp, tutorial, tutorials, masterclass, webinar | tutor, tutors, teacher, teachers, instructor | tutor, teach
student ! | student, students | student, students |
student-undergrad < student | undergrad, undergraduate, bachelor student | undergrad, undergrads, undergraduate |
student-masters < student | masters thesis, master thesis, masters student | masters student |
student-phd < student | phd student, phd candidate, doctoral student | phd student, phd students, phd candidate, doctoral student |
researcher < research | | researcher, researchers, postdoc, professor, lab, research lab |

# business roles
bizrole ! | business role |
customer-success < bizrole | customer success, account management, customer onboarding, renewals, qbrs, qbr, customer retention | customer success manager, csm, csms, account manager |
support < bizrole | customer support, support tickets, helpdesk, tier-1 support, tier 1 support, technical support | support agent, support agents, support specialist |
sales < bizrole | sales, selling, business development, bizdev, founder-led sales, enterprise sales, pipeline generation, outbound | account executive, account executives, ae, aes, sdr, bdr, salesperson, sales lead, ex-sales, business cofounder | sell
marketing < bizrole | marketing, growth marketing, demand gen, demand generation, brand, go-to-market, gtm, pipeline targets | marketer, marketing leader, vp marketing, cmo, head of marketing, marketing lead |
eng-management < bizrole | engineering management, engineering leadership | engineering manager, engineering managers, vp engineering, head of engineering |
product-management < bizrole | product management, roadmap | product manager, product managers, pm |
recruiting < bizrole | recruiting, talent acquisition | recruiter, headhunter |
operations < bizrole | operations, ops | operations manager, coo |

# home, family and neighbours
housing ! | housing, accommodation, room, rooms, spare room, bedroom, apartment, flat, house share, shared house, studio apartment, sublet, place to live | landlord, landlady, host family | rent out, sublet
tenant | | roommate, roommates, housemate, housemates, flatmate, flatmates, tenant, tenants, lodger, subtenant |
childcare ! | childcare, child care, nannying, daycare | nanny, nannies, au pair, childminder |
nanny-share < childcare * | nanny share, nanny-share, share a nanny | |
babysitting < childcare | babysitting, babysit, date night care | babysitter, babysitters | babysit
family ~0.5 | family, families, our daughter, our son, our kid, our kids, our baby, toddler, 1-year-old, 14 months | parent, parents |
petcare ! | pet care, pet sitting, pet-sitting, house-sitting, house sitting, boarding, dog boarding, dog sitting, cat sitting, drop-in visits, drop-in, dog walking, walks | pet sitter, dog sitter, cat sitter, dog walker, sitter | board, pet-sit, walk, feed
volunteering < community | volunteering, volunteer work, volunteer shifts, workdays, work days, community service | volunteer, volunteers | volunteer
gig-economy # | gig worker, gig workers, gig economy, open banking, open-banking
gardening # | garden, gardening, community garden, raised beds, composting, planting, allotment
food-bank # | food bank, food pantry, sorting donations, donations
sport ! % | sport, sports, game partner | |
tennis < sport * % | tennis, ntrp | tennis partner, hitting partner, tennis player |
pickleball < sport * % | pickleball | pickleball players |
soccer < sport * % | soccer, pickup soccer, football, futsal | soccer players |
basketball < sport * % | basketball, pickup basketball | |
running < sport * % | running, run club, marathon training | running buddy, running partner, runners |
climbing < sport * % | climbing, bouldering | climber, climbers, boulderer, climbing partner, belay partner | climb, boulder
cycling < sport * % | cycling, bike rides, group rides | cyclist, cyclists, cycling buddy |
chess < sport * % | chess | chess player, chess players, chess partner |
hiking < sport * % | hiking, hikes | hiker, hikers, hiking buddy |

# goods
goods ! ~0.8 | gear, equipment | seller, buyer |
audio-gear < goods | mixer, mixing desk, mixing console, studio monitors, monitors, audio interface, microphone, microphones, synth, amp, amplifier, pedals | |
phone < goods | phone, smartphone, android device, iphone, second device, test device | |
trading-cards < goods | trading cards, card collection, magic the gathering, magic: the gathering, mtg, pokemon cards, binders | |
garden-supplies < goods | raised bed kits, garden bed kits, bed kits, planters, seed packets, garden beds, soil | |
furniture < goods | furniture, sofa, couch, desk, chair, bed frame | |
`;

export interface Concept {
  id: string;
  parent: string | null;
  mutual: boolean;
  exclusive: boolean;
  topicOnly: boolean;
  activity: boolean;
  weight: number;
  /** The first thing phrase as written ("funding"), for text shown to people. */
  label: string;
  /** The first phrase naming who provides it ("investor"), or null. */
  agentLabel: string | null;
}

export type FormKind = 'thing' | 'agent' | 'act';

export interface LexEntry {
  concept: string;
  kind: FormKind;
  /** Normalised tokens of the phrase. */
  words: string[];
}

export interface Lexicon {
  concepts: Map<string, Concept>;
  /** First word → entries starting with it, longest first. */
  byFirst: Map<string, LexEntry[]>;
}

export function parseLexicon(source: string, normWords: (phrase: string) => string[]): Lexicon {
  const concepts = new Map<string, Concept>();
  const byFirst = new Map<string, LexEntry[]>();
  for (const rawLine of source.split('\n')) {
    const line = rawLine.trim();
    if (!line || line.startsWith('# ') || line === '#') continue;
    const [head, things = '', agents = '', acts = ''] = line.split('|').map((s) => s.trim());
    const m = /^([a-z0-9-]+)(?:\s*<\s*([a-z0-9-]+))?\s*(.*)$/.exec(head);
    if (!m) throw new Error(`lexicon: cannot read "${line}"`);
    const flags = m[3];
    const weight = /~([\d.]+)/.exec(flags);
    const firstOf = (list: string) => list.split(',').map((x) => x.trim()).find(Boolean) ?? null;
    const concept: Concept = {
      id: m[1],
      parent: m[2] ?? null,
      mutual: flags.includes('*'),
      exclusive: flags.includes('!'),
      topicOnly: flags.includes('#'),
      activity: flags.includes('%'),
      weight: weight ? Number(weight[1]) : 1,
      label: firstOf(things) ?? firstOf(agents) ?? m[1].replace(/-/g, ' '),
      agentLabel: firstOf(agents),
    };
    concepts.set(concept.id, concept);
    const add = (list: string, kind: FormKind) => {
      for (const phrase of list.split(',').map((s) => s.trim()).filter(Boolean)) {
        const words = normWords(phrase);
        if (!words.length) continue;
        const entries = byFirst.get(words[0]) ?? [];
        entries.push({ concept: concept.id, kind, words });
        byFirst.set(words[0], entries);
      }
    };
    add(things, 'thing');
    add(agents, 'agent');
    add(acts, 'act');
  }
  // Parents named but not defined become plain grouping concepts.
  for (const c of [...concepts.values()]) {
    if (c.parent && !concepts.has(c.parent)) {
      concepts.set(c.parent, { id: c.parent, parent: null, mutual: false, exclusive: false, topicOnly: true, activity: false, weight: 0.5, label: c.parent.replace(/-/g, ' '), agentLabel: null });
    }
  }
  for (const entries of byFirst.values()) entries.sort((a, b) => b.words.length - a.words.length);
  return { concepts, byFirst };
}

export const LEXICON_SOURCE = LEXICON;
