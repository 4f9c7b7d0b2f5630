/**
 * When screens whose code failed to download may try again. React would retry a failed screen at
 * once, and again, for as long as the download fails: a screen tries again only after the layout
 * asked (`retryFailedScreens`, on a button, a timer or the server answering again).
 */
let generation = 0;

export function retryFailedScreens(): void {
  generation += 1;
}

export function screenRetryGeneration(): number {
  return generation;
}
