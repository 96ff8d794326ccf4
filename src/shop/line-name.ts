/** A line's name with its variant's label where it has one: 'Penstand T-shirt (Size: M, Colour: Black)'. */
export function lineName(name: string, variant: string | null | undefined): string {
  return variant ? `${name} (${variant})` : name;
}
