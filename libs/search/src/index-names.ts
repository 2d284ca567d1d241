/**
 * Each read model is written through an alias pointing at a versioned index, so a reindex
 * into `-v2` followed by an alias swap needs no downtime.
 */
export class IndexNames {
  constructor(private readonly prefix: string) {}

  alias(model: ReadModelName): string {
    return `${this.prefix}${model}`;
  }
  versioned(model: ReadModelName, version = 1): string {
    return `${this.prefix}${model}-v${version}`;
  }
  template(model: ReadModelName): string {
    return `${this.prefix}${model}-template`;
  }
  pattern(model: ReadModelName): string {
    return `${this.prefix}${model}-v*`;
  }
}

export type ReadModelName = 'events' | 'investigations' | 'detection-states';
