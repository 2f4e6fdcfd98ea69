// How scripts/test.mjs shows a duration: "9.9 s", "42 s", "4 min 05 s". Rounded once, to whole seconds from 10 s
// on, so 239.6 s is "4 min 00 s" (rounding the minutes' remainder alone gave "3 min 60 s").
export function minutes(seconds) {
  const whole = Math.round(seconds);
  if (whole >= 60) return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
  return seconds >= 10 ? `${whole} s` : `${seconds.toFixed(1)} s`;
}
