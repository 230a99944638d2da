/**
 * The hand-written vocabulary of worker/memories/updates/detect.ts: which words and short phrases signal
 * which attribute of a person ("families"), which kind of thing a family's head noun names
 * ("heads"), and the cues of change, replacement, addition and time. Written from general
 * knowledge of the personal facts people state (where they live, work, eat, bank, ...), not
 * from any test set. Entries are lower-case, possessive "'s" removed; a phrase is up to four
 * words. detect.ts compiles them once into one map, so a text is read in one pass.
 */

/** One attribute family. Lists are comma-separated words or phrases. */
export interface FamilyDef {
  name: string;
  /** Words that on their own say the text is about this attribute. */
  strong: string;
  /** Words that hint at it but are common in other senses ("moved", "plan", "team"). */
  weak?: string;
  /**
   * Kinds of thing the attribute can be about, by dimension: two texts whose heads of one
   * dimension are disjoint are about different things ("laptop" vs "desktop"). Head words are
   * strong signals of the family unless prefixed with "~" (weak) or "^" (names the kind only:
   * "purple" says nothing about favourites until "favourite" or "best" does).
   */
  heads?: Record<string, Record<string, string>>;
  /** A person can hold several values at once (hobbies, pets, languages, allergies): a newer
   * value replaces an older one only when the newer text says so ("instead", "quit", "now"). */
  multi?: boolean;
  /** Both texts must name a head of the same kind ("favourite colour" vs "favourite food"). */
  needsHead?: boolean;
  /**
   * A text about this family is about it only: "my favourite restaurant is a vegan place" is
   * not about the user's diet. A pair where one text has it and the other not is refused.
   */
  exclusive?: boolean;
}

export const FAMILIES: FamilyDef[] = [
  {
    name: "residence",
    strong:
      "live, lives, living, lived, live in, lived in, reside, resides, resided, residing, residence, resident, apartment, apt, condo, flat in, hometown, rent a, renting, rented, lease, relocate, relocated, relocating, relocation, neighborhood, neighbourhood, based in, got the keys, new place, our place, my place, moved into, moved to a new, settled in, settled there, postcode, zip code, home address, street address, live with, move in, moved in, house in, apartment in, studio apartment, townhouse, bungalow, cottage, duplex, dorm, loft, based out of, own a home, own a house, homeowner, signed a lease, new apartment, new house",
    weak: "address, house, home, moved, move, moving, rent, settled, place, mortgage, zip, suburbs, suburb, downtown, city, town",
    heads: {
      q: {},
    },
  },
  {
    name: "employer",
    strong:
      "employer, employed, employs, employee of, hired, hired me, hire, work at, works at, working at, worked at, work for, works for, working for, worked for, job at, job with, offer from, an offer, company, firm, startup, joined, started at, starts at, laid off, resigned, onboarding, took a job, new job, took a position, position at, brought me on, employed by, my last job, consultant at, engineer at, developer at, got a job, landed a job, switched companies, role at, job offer, my company, our company, contractor for, contractor at, offer at, full-time offer, first day at",
    weak: "job, work, works, working, been at, quit, left, office, org, organization, organisation, corp, inc, ltd, llc",
  },
  {
    name: "job-title",
    strong:
      "job title, title, role is, my role, promoted, promotion, promoted to, intern, internship, work as, works as, working as, worked as, retrained, occupation, profession, position, full-time associate, head of, director, vp, cto, ceo, cfo, coo, founder, cofounder, co-founder",
    weak: "role, career, associate, engineer, developer, programmer, designer, analyst, nurse, teacher, teach, teaches, teaching, lawyer, attorney, accountant, consultant, scientist, researcher, architect, librarian, chef, cook, pharmacist, professor, lecturer, freelancer, contractor, electrician, plumber, paramedic, firefighter, officer, clerk, cashier, barista, writer, journalist, photographer, marketer, recruiter, salesperson, technician, mechanic, pilot, dentist assistant, lead, senior, junior, staff, principal",
  },
  {
    name: "manager",
    strong:
      "boss, supervisor, report to, reports to, reporting to, reported to, line manager, team lead, skip-level, direct manager, manager",
  },
  {
    name: "diet",
    strong:
      "vegetarian, vegan, pescatarian, mediterranean diet, keto, paleo, diet, plant-based, carnivore, flexitarian, omnivore, gluten-free, gluten, dairy, dairy-free, lactose, lactose-free, animal products, meat, halal, kosher, intermittent fasting, fasting, low-carb, carbs, no restrictions, eat everything, sugar-free",
    weak: "eat, eats, eating, ate, food, meals, menu, bread, pasta, fish, chicken, sugar, fruit, vegetables, pork, beef, seafood, eggs, avoids, avoid",
  },
  {
    name: "allergy",
    strong:
      "allergic, allergy, allergies, intolerant, intolerance, lactose intolerant, gluten intolerant, lactose intolerance, react to, reaction to, anaphylaxis, anaphylactic, epipen",
    multi: true,
  },
  {
    name: "deadline",
    strong:
      "deadline, deadlines, due, due date, due by, launch date, go-live, submitted by, submit by, extension, extended to, extended until, pushed to, pushed back, postponed, delayed to, release date, ship date",
    weak: "launch, launches, ship, shipping, ships, release, submit, submission, until, extended",
    heads: {
      what: {
        paper:
          "^report, ^paper, ^essay, ^article, ^manuscript, ^draft, ^thesis, ^dissertation, ^writeup, ^write-up, ^chapter",
        application: "^application, ^grant, ^proposal, ^funding, ^submission",
        tax: "^tax, ^taxes, ^tax return, ^filing, ^return",
        document: "^passport, ^visa, ^license, ^licence, ^renewal, ^id",
        bill: "^invoice, ^bill, ^payment, ^rent",
        launch: "^launch, ^release, ^ship, ^shipping, ^go-live, ^rollout",
        project: "^project",
        exam: "^exam, ^test, ^quiz, ^assignment, ^homework",
        presentation: "^presentation, ^deck, ^talk, ^demo, ^pitch",
      },
    },
  },
  {
    name: "phone",
    strong:
      "phone number, number is, cell number, mobile number, cell, mobile, cell phone, mobile phone, call me at, text me, text me at, text me on, reach me at, reached at, call me on, whatsapp",
    weak: "phone, number",
    heads: { q: {} },
  },
  {
    name: "email",
    strong: "email, e-mail, email address, inbox, inboxes, mail me, write to me at, gmail",
    heads: { q: {} },
  },
  {
    name: "school",
    strong:
      "school, university, college, studying at, study at, studies at, student at, student, enrolled, enroll, enrolment, enrollment, major, majoring, majors, minor in, degree, mba, phd, masters, master, master's degree, bachelor, bachelor's, sophomore, freshman, semester, tuition, campus, grad school, business school, law school, med school, concentration, dropped out, transferred to, accepted to, got accepted",
    weak: "classes, course, courses, studying, study, studies, academy",
  },
  {
    name: "subscription",
    strong:
      "subscription, subscriptions, subscribed, subscribe, subscribes, signed up for, tier, free tier, premium tier, membership plan, license, licence, upgraded to, downgraded, downgraded to, phone plan, data plan, carrier, carriers, streaming",
    weak: "plan, plans, premium, basic, pro, upgraded, upgrade, downgrade, annual, monthly",
    heads: {
      service: {
        video:
          "~netflix, ~hulu, ~hbo, ~hbo max, ~disney+, ~disney plus, ~prime video, youtube premium, ~paramount+, ~nebula",
        music: "~spotify, ~apple music, ~tidal, ~pandora, music streaming, ~music",
        phone: "verizon, t-mobile, at&t, mint mobile, phone plan, data plan, carrier, carriers",
        software: "license, licence, seats",
        news: "newspaper, new york times, nyt, wsj, economist",
      },
    },
  },
  {
    name: "doctor",
    strong:
      "doctor, physician, physicians, gp, primary care, pcp, family doctor, clinic, dentist, dental, teeth, orthodontist, therapist, therapy, counselor, counsellor, counseling, counselling, psychiatrist, psychologist, dermatologist, pediatrician, paediatrician, optometrist, eye doctor, ob-gyn, gynecologist, cardiologist",
    heads: {
      kind: {
        general:
          "doctor, physician, physicians, gp, primary care, primary care provider, pcp, family doctor",
        dental: "dentist, dental, teeth, orthodontist",
        mental:
          "therapist, therapy, counselor, counsellor, counseling, counselling, psychiatrist, psychologist",
        skin: "dermatologist",
        eye: "optometrist, eye doctor",
        children: "pediatrician, paediatrician",
        women: "ob-gyn, gynecologist",
        heart: "cardiologist",
      },
    },
  },
  {
    name: "vehicle",
    strong: "vehicle, traded it in, traded in, drives a, drive a",
    weak: "drive, drives, driving, ride, rides, riding, get around",
    heads: {
      kind: {
        auto: "car, cars, truck, suv, sedan, minivan, van, hatchback, pickup, jeep, mazda, honda, toyota, subaru, tesla, ford, bmw, audi, kia, hyundai, volkswagen, vw, nissan, chevy, chevrolet, prius, civic, volvo, lexus, porsche, mercedes, rav4, outback, model 3, model y, family vehicle",
        motorcycle: "motorcycle, motorbike, harley, ducati",
        bike: "bike, bicycle, cycling, road bike, mountain bike, trek, cannondale, e-bike",
        scooter: "scooter, moped, vespa",
      },
    },
  },
  {
    name: "relationship",
    strong:
      "single, dating, girlfriend, boyfriend, married, marry, marriage, engaged, engagement, fiance, fiancee, fiancé, fiancée, divorce, divorced, separated, broke up, split up, widowed, relationship, spouse, wife, husband, seeing someone, unattached, in a relationship",
    weak: "partner",
  },
  {
    name: "favorite",
    strong: "favorite, favourite, fave, most-loved, top, like best, love most, best",
    needsHead: true,
    exclusive: true,
    heads: {
      kind: {
        color:
          "^color, ^colour, ^red, ^blue, ^green, ^yellow, ^purple, ^orange, ^pink, ^black, ^white, ^teal, ^turquoise",
        food: "^food, ^dish, ^meal, ^cuisine, ^snack, ^dessert, ^pizza, ^sushi, ^ramen, ^tacos, ^pasta, ^burger, ^curry",
        music: "^band, ^artist, ^singer, ^song, ^album, ^musician, ^genre",
        film: "^movie, ^film",
        book: "^book, ^author, ^novel, ^writer",
        show: "^show, ^series, ^tv show",
        sport: "^sport, ^basketball, ^soccer, ^football, ^baseball, ^hockey, ^tennis, ^golf",
        season: "^season, ^autumn, ^winter, ^spring, ^summer",
        drink: "^drink, ^beer, ^wine, ^cocktail",
        place: "^restaurant, ^cafe, ^city, ^place, ^country",
        game: "^game, ^video game, ^board game",
        animal: "^animal",
        flower: "^flower",
        holiday: "^holiday",
      },
    },
  },
  {
    name: "team",
    strong: "team, squad, department, dept, division, on the team, transferred over",
    weak: "group, org, reorg, unit, moved over, transferred",
  },
  {
    name: "project",
    strong:
      "project, working on, initiative, codename, assigned to, reassigned, reassigned to, heading up, workstream, leading the",
    weak: "building, effort, migration, redesign",
  },
  {
    name: "hobby",
    strong:
      "hobby, hobbies, pastime, spare time, free time, took up, taken up, picked up, knitting, knit, painting, watercolors, watercolours, gardening, woodworking, pottery, ceramics, chess, rock climbing, bouldering, photography, baking, fishing, surfing, guitar, piano, violin, drums, crochet, crocheting, sewing, quilting, birdwatching, board games, video games, gaming, drawing, sketching, calligraphy, skateboarding, scuba",
    weak: "weekends, saturdays, sundays, art, music, hiking, reading, writing, dancing, singing, climbing, running, cooking, play, plays, tennis, pickleball, golf, basketball, soccer, yoga",
    multi: true,
  },
  {
    name: "gym",
    strong:
      "gym, gyms, work out, works out, working out, worked out, workout, workouts, exercise, exercises, crossfit, pilates, fitness, planet fitness, equinox, ymca, orangetheory, corepower, climbing gym, climbing wall, personal trainer, boxing gym, spin class, spin classes",
    weak: "trains, train at, training, yoga, membership, trainer, lift, lifting, studio",
  },
  {
    name: "bank",
    strong:
      "bank, banks, banking, bank with, credit union, chase, wells fargo, citi, citibank, bank of america, ally, sofi, capital one, schwab, fidelity, barclays, hsbc, monzo, revolut, chime, santander, td bank",
    weak: "account, accounts, pay with, purchases",
    heads: {
      kind: {
        checking: "checking, checking account, current account, debit card",
        savings: "savings, savings account, high-yield, rainy-day fund, emergency fund",
        card: "credit card, ~card, visa, mastercard, amex, american express",
        loan: "mortgage, loan, student loan",
        investing: "brokerage, investments, 401k, ira, roth",
      },
    },
  },
  {
    name: "commute",
    strong:
      "commute, commutes, commuting, commuted, to work, to the office, into the office, to my office, to my job, walk to, bike to, bikes to, cycle to, drive to work, work from home, works from home, working from home, wfh, remote, fully remote, hybrid, in-office, carpool, transit, take the train, take the bus, take the subway, take the ferry",
    weak: "subway, train, bus, ferry, metro, office, tram",
  },
  {
    name: "pet",
    strong:
      "pet, pets, pet-free, dog, dogs, puppy, cat, cats, kitten, kittens, hamster, parrot, bird, birds, rabbit, bunny, guinea pig, turtle, lizard, snake, golden retriever, labrador, rescue dog, rehomed",
    weak: "adopted, fish",
    multi: true,
  },
  {
    name: "language-learning",
    strong: "duolingo, language lessons, language classes",
    weak: "learning, learn, studying, lessons, classes, course, practicing, practising, tutor",
    multi: true,
  },
  {
    name: "language-spoken",
    strong:
      "speak, speaks, speaking, spoke, fluent, fluently, native language, native speaker, bilingual, mother tongue, household language, first language",
    weak: "language, languages",
    multi: true,
  },
  {
    name: "device",
    strong: "computer, dev machine, device",
    heads: {
      kind: {
        laptop:
          "laptop, notebook, macbook, macbook pro, macbook air, thinkpad, chromebook, xps, dell xps, surface laptop",
        desktop: "desktop, pc, workstation, imac, mac mini, tower",
        phone: "~phone, iphone, android, android phone, pixel, smartphone, galaxy s",
        tablet: "tablet, ipad, galaxy tab",
        watch: "smartwatch, apple watch, watch",
        reader: "kindle, e-reader",
        server: "server, servers",
      },
    },
  },
  {
    name: "os",
    strong: "windows, windows 11, windows 10, macos, linux, ubuntu, fedora, debian, chromeos",
  },
  {
    name: "tools",
    strong:
      "programming language, editor, editors, ide, vim, neovim, emacs, vs code, vscode, intellij, pycharm, sublime, xcode, browser, chrome, firefox, safari, python, javascript, typescript, rust, golang, java, kotlin, swift, ruby, ruby on rails, rails, php, scala, elixir, haskell, c#, c++, react, vue, angular, django, flask, laravel, svelte, written in, rewrote, jira, asana, trello, issue tracker, ticketing, tickets, project management tool",
    weak: "code, codes, coding, programming, write, stack",
    heads: {
      kind: {
        language:
          "programming language, python, javascript, typescript, rust, golang, java, kotlin, swift, ruby, php, scala, elixir, haskell, c#, c++",
        editor:
          "editor, editors, ide, vim, neovim, emacs, vs code, vscode, intellij, pycharm, sublime, xcode",
        browser: "browser, chrome, firefox, safari",
        framework: "react, vue, angular, django, flask, laravel, svelte, rails, ruby on rails",
        tracker: "jira, asana, trello, issue tracker, ticketing, tickets, project management tool",
      },
      part: {
        backend: "backend, back end, back-end, server, api",
        frontend: "frontend, front end, front-end, ui, web app",
        mobile: "mobile app, ios app, android app",
      },
    },
  },
  {
    name: "drink",
    strong:
      "coffee, tea, latte, lattes, espresso, cappuccino, americano, cold brew, decaf, caffeine, matcha, chai, oat milk, herbal tea, flat white, green tea, black coffee",
    weak: "drink, drinks, drinking, sips, cups",
  },
  {
    name: "timezone",
    strong:
      "timezone, time zone, pacific time, eastern time, central time, mountain time, pst, pdt, est, edt, cst, cdt, mst, cet, cest, gmt, utc, bst, ist, jst, aest, utc+1, utc+2, utc+8, utc-5, pacific, eastern, central european time, central european, european time, eastern standard time, pacific standard time, greenwich mean time, india standard time, japan time, australian eastern time, mountain standard time",
    weak: "clock",
  },
  {
    name: "name",
    strong:
      "call me, go by, goes by, nickname, preferred name, my name, name is, addressed as, refer to me as, known as, be called, to be called, calls me, call him, call her",
  },
  {
    name: "pronouns",
    strong: "pronouns, she/her, he/him, they/them",
  },
  {
    name: "salary",
    strong:
      "salary, income, earn, earns, earning, compensation, pay rise, raise, hourly rate, per hour, an hour, bills, charges, day rate, rate is, make $",
    weak: "rate, fee, fees, paid, pay, a year, per year",
  },
  {
    name: "meeting",
    strong:
      "standup, stand-up, sync, meeting, meetings, 1:1, one-on-one, 1-on-1, retro, retrospective, all-hands, appointment, check-in",
    weak: "weekly, daily, call",
    heads: {
      kind: {
        standup: "standup, stand-up, daily sync, sync, daily",
        one: "1:1, one-on-one, 1-on-1",
        retro: "retro, retrospective",
        allhands: "all-hands",
        appointment: "appointment",
      },
    },
  },
  {
    name: "travel",
    strong:
      "trip, trips, vacation, vacations, vacationed, itinerary, destination, cruise, heading to, summer plans, travel plans, holiday in, honeymoon",
    weak: "travel, traveling, travelling, flight, flights, flying, going to, visit, visiting, holidays, seat, seats",
    heads: {
      kind: {
        seat: "window seat, window seats, aisle seat, aisle seats, seat, seats",
      },
    },
  },
  {
    name: "birthday",
    strong: "birthday, born on, date of birth, dob, birth date, born in",
  },
  {
    name: "age",
    strong: "years old, turned, my age",
  },
  {
    name: "weight",
    strong: "weigh, weighs, weighed, weight, kg, lbs, pounds",
  },
  {
    name: "sleep",
    strong: "sleep, bedtime, go to bed, wake up, wakes up, woke up, alarm, get up",
    heads: {
      kind: {
        bed: "sleep, bedtime, go to bed",
        wake: "wake up, wakes up, woke up, alarm, get up",
      },
    },
  },
  {
    name: "insurance",
    strong:
      "insurance, insurer, insured, coverage, geico, aetna, progressive, allstate, cigna, kaiser, health plan, health plans",
    heads: {
      kind: {
        auto: "car insurance, auto insurance",
        health:
          "health insurance, medical insurance, dental insurance, health plan, health plans, medical plan",
        home: "home insurance, renters insurance, homeowners insurance",
        life: "life insurance",
        pet: "pet insurance",
        travel: "travel insurance",
      },
    },
  },
  {
    name: "appearance",
    strong:
      "hair, haircut, hairstyle, beard, mustache, moustache, glasses, contact lenses, contacts, tattoo, tattoos, hair color",
  },
  {
    name: "internet",
    strong: "internet, isp, broadband, wifi, fiber, fibre, comcast, xfinity, spectrum",
  },
  {
    name: "medication",
    strong: "medication, medications, meds, prescription, prescribed, dose, dosage, mg",
    multi: true,
  },
  {
    name: "fandom",
    strong: "fan, fans, root for, supporter, cheer for, season tickets",
  },
  {
    name: "handle",
    strong: "handle, username, user name, github, twitter, instagram, linkedin",
  },
];

/** Qualifiers just before a head noun: "work phone", "personal email", "summer house". */
export const QUALIFIERS =
  "work, office, personal, home, private, business, school, summer, vacation, holiday, weekend, weekday, second, spare, backup, secondary";

/** Times of day and week: "coffee in the morning" and "tea in the evening" are two habits. */
export const TIMES_OF_DAY =
  "morning, mornings, evening, evenings, afternoon, afternoons, night, nights, weekday, weekdays, weekend, weekends";

/** Words of change in the newer text: they raise the score. */
export const CHANGE_CUES =
  "now, nowadays, these days, currently, no longer, anymore, any more, instead, switched, switching, swapped, changed, slipped, moved up, first day, moved, moving, relocated, new, newly, just, finally, started, starting, began, quit, left, leaving, joined, became, since, replaced, upgraded, downgraded, transferred, promoted, retrained, took up, taken up, picked up, gave up, given up, dropped, cancelled, canceled, got the keys, bought, sold, traded, turned, from now on, as of, extended, pushed, postponed, rescheduled, shifted, delayed, reassigned, took over, divorce, divorced, broke up, split up, engaged, married, hired, accepted, rehomed, adopted, went, got, transitioned, declared, enrolled, dropped out, filed, finalized, rewrote, reorg, updated, correction, actually, not anymore, after the reorg, stopped, ditched, rather than, no more";

/**
 * Change events: a text that reports one ("moved", "joined", "since") is about a change, so a
 * past time in it says when the change happened ("moved to Denver last month"), not that the
 * fact belongs to that past. A subset of CHANGE_CUES plus the "now" words.
 */
export const CHANGE_EVENTS =
  "now, nowadays, these days, currently, no longer, anymore, any more, instead, switched, swapped, changed, moved, relocated, new, just, got a job, landed a job, got hired, signed, migrated, registered, cut, turned, got married, got engaged, finally, started, began, quit, left, leaving, joined, became, since, replaced, upgraded, downgraded, transferred, promoted, retrained, took up, gave up, dropped, cancelled, canceled, got the keys, bought, sold, traded, from now on, as of, extended, pushed, postponed, rescheduled, shifted, reassigned, took over, divorced, broke up, split up, engaged, hired, accepted, rehomed, adopted, transitioned, enrolled, dropped out, finalized, rewrote, stopped, ditched, no more";

/**
 * Words saying the newer value replaces the older one, needed for attributes a person can
 * hold several of at once (a new hobby is usually one more hobby).
 */
export const REPLACEMENT_CUES =
  "instead, no longer, anymore, any more, not anymore, switched, swapped, replaced, gave up, given up, quit, stopped, dropped, ditched, rather than, no more, rehomed, gave away, passed away, pet-free, now, nowadays, these days";

/** Words saying the newer fact adds to the older one rather than replacing it. */
export const ADDITIVE_CUES =
  "also, as well, another, additionally, in addition, besides, on the side, side gig, side project, second, both, extra";

/**
 * Life periods: a fact scoped by one of these belongs to that period, whatever else the text
 * says ("as a kid I lived in Nairobi").
 */
export const HARD_SCOPES =
  "as a kid, as a child, as a teen, as a teenager, as a student, as a toddler, as a boy, as a girl, growing up, grew up, when i was, when we were, when the user was, when i lived, when we lived, back in, back then, back when, in college, in high school, in grad school, in graduate school, in university, in middle school, in elementary school, in my teens, in my twenties, in my thirties, in my forties, in my fifties, in my 20s, in my 30s, in my 40s, in my youth, in my childhood, during, before the kids, before kids, before we had, before i had, before having, before marriage, before getting married, before i, before we, before the pandemic, before covid, in the past";

/**
 * Past times and former things that scope a fact unless the same text reports a change ("in
 * 2019 I worked at Accenture" vs "I joined Stripe two weeks ago").
 */
export const SOFT_SCOPES =
  "used to, formerly, previously, yesterday, last night, former, ex-, at the time, those days, that time";

/** Periods that "last", "this", "next" qualify. */
export const PERIODS =
  "summer, winter, spring, fall, autumn, year, month, week, weekend, semester, term, quarter, season, christmas, thanksgiving, easter, holidays, holiday, night, decade";

/** Kin, roles and other people a fact can be about instead of the user. */
export const PERSONS =
  "sister, brother, sibling, mom, mum, mother, mommy, mama, dad, father, daddy, papa, parent, parents, wife, husband, spouse, partner, fiance, fiancee, fiancé, fiancée, boyfriend, girlfriend, son, daughter, kid, kids, child, children, baby, toddler, stepson, stepdaughter, stepmom, stepdad, stepmother, stepfather, grandma, grandpa, grandmother, grandfather, grandparent, grandparents, granny, nana, grandson, granddaughter, grandkid, grandkids, grandchild, grandchildren, aunt, auntie, uncle, cousin, nephew, niece, friend, bestie, roommate, flatmate, housemate, colleague, coworker, co-worker, teammate, boss, manager, supervisor, neighbor, neighbour, in-laws, mother-in-law, father-in-law, sister-in-law, brother-in-law, son-in-law, daughter-in-law, ex, ex-wife, ex-husband, ex-boyfriend, ex-girlfriend, landlord, landlady, tenant, client, student, teacher, tutor, coach, mentor, advisor, adviser, doctor, dentist, therapist, physician, lawyer, accountant, trainer, assistant, twin, relatives, relative, folks, buddy, pal";

/**
 * Roles that are themselves an attribute of the user: "my manager is Karen" is about the user
 * (who manages them), not about the manager.
 */
export const ROLE_ATTRIBUTES =
  "manager, boss, supervisor, team lead, doctor, dentist, therapist, physician, landlord, landlady, partner, boyfriend, girlfriend, wife, husband, spouse, fiance, fiancee, fiancé, fiancée, trainer, coach, tutor, mentor, advisor, adviser, accountant, lawyer, teacher, roommate, flatmate";

/** Animals: "my dog's name is Max" is about the dog. */
export const ANIMALS =
  "dog, cat, puppy, kitten, pet, hamster, parrot, bird, rabbit, horse, turtle, fish, lizard";

/** Verbs after a name that make the named person the fact's subject ("Tom works at Netflix"). */
export const PERSON_VERBS =
  "lives, lived, works, worked, moved, studies, studied, drives, drove, likes, loves, prefers, dates, joined, started, attends, teaches, speaks, plays, runs, owns, eats, rents, bought, earns, manages, reports, transferred, relocated, quit, left, married";

/** Names of languages: with them, "learning" and "classes" are about a language. */
export const LANGUAGES =
  "english, spanish, french, german, italian, portuguese, dutch, swedish, norwegian, danish, finnish, polish, czech, russian, ukrainian, greek, turkish, arabic, hebrew, persian, farsi, hindi, urdu, bengali, punjabi, tamil, mandarin, cantonese, chinese, japanese, korean, vietnamese, thai, indonesian, malay, tagalog, swahili, latin, asl, sign language";
