/**
 * The web-platform globals that Node (16+) and browsers both provide, for
 * code in shared/, which is type-checked with neither Node's nor the DOM's
 * typings so that anything else fails to compile.
 */
declare function btoa(data: string): string;
declare function atob(data: string): string;
