import type { Person } from "../access/people.js";

/**
 * A person's name as it goes before their id in a text (`Budi (@budi) ` then `<code>3001</code>`),
 * with the space after it; nothing for someone the bot has never seen write.
 */
export function nameBefore(person: Person | undefined): string {
  if (person === undefined || person.name === "") return person?.username === undefined ? "" : `@${person.username} `;
  return person.username === undefined ? `${person.name} ` : `${person.name} (@${person.username}) `;
}

/** A person in plain text, name and id (`Budi (@budi) · 3001`), or the id alone when not known. */
export const personText = (userId: number, person: Person | undefined): string =>
  `${nameBefore(person)}${person === undefined ? "" : "· "}${userId}`;
