import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

let installed = false;

/**
 * class-validator looks a class's rules up on every validate() by walking every class that has rules
 * (an `instanceof` per DTO class of the whole service) and filtering them: with the enterprise modules'
 * DTOs that walk was the largest single cost of validating a body. The rules are fixed once the classes
 * are loaded, so the answer (and its grouping by property) is memoized per target and options; a rule
 * added later (a class loaded late) clears the memo. The library reads these arrays and never changes them.
 */
export function memoizeValidationMetadata(): void {
  if (installed) return;
  installed = true;
  const storage = getMetadataStorage();
  const lookup = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const add = storage.addValidationMetadata.bind(storage);
  let targets = new WeakMap<Function, Map<string, ValidationMetadata[]>>();
  let groupings = new WeakMap<ValidationMetadata[], Record<string, ValidationMetadata[]>>();
  storage.addValidationMetadata = (metadata) => {
    targets = new WeakMap();
    groupings = new WeakMap();
    add(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0001') ?? ''}`;
    let byOptions = targets.get(target);
    if (!byOptions) targets.set(target, (byOptions = new Map<string, ValidationMetadata[]>()));
    let found = byOptions.get(key);
    if (!found) byOptions.set(key, (found = lookup(target, schema, always, strictGroups, groups)));
    return found;
  };
  // The executor groups the looked-up array right after; the same array gives the same grouping.
  storage.groupByPropertyName = (metadatas) => {
    let found = groupings.get(metadatas);
    if (!found) groupings.set(metadatas, (found = group(metadatas)));
    return found;
  };
}
