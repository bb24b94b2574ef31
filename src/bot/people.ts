import type { Person } from "../access/people.js";

/**
 * A person's name as it goes before their id in a text (`Budi (@budi) ` then `<code>3001</code>`),
 * with the space after it; nothing for someone the bot has never seen write.
 */
export function nameBefore(person: Person | undefined): string {
  if (person === undefined || person.name === "") return person?.username === undefined ? "" : `@${person.username} `;
  return person.username === undefined ? `${person.name} ` : `${person.name} (@${person.username}) `;
}
