# The jitter loop credits at most one bit per timer tick and the CRNG needs
# 256 (jitter_ticks, from plots/runlib.py): its cost should be 256/HZ
# seconds. Median duration of the first blocking urandom read (which runs
# the loop) against CONFIG_HZ, qemu64, in the clock hz_clock names
# (instruction time where the run has icount cells, else TCG: jitter_rows).
load 'plots/style.gp'
dat = datadir.'/hz.dat'
set title "The jitter loop's cost against CONFIG_HZ (cpu=qemu64, no RDRAND; ".hz_clock.")\n".caption
set xlabel 'CONFIG_HZ'
set ylabel 'first blocking urandom read, median (ms, guest clock)'
set logscale x
set xtics (100, 250, 1000)
set xrange [70:1400]
set yrange [0:3000]
if (strlen(hz_note) > 0) {
	set label 1 hz_note at graph 0.5,0.5 center
}
ticks = sprintf("%d000.0/x with lines dt 2 lc rgb '#555555' title '%d ticks: %d/HZ s'", jitter_ticks, jitter_ticks, jitter_ticks)
if (strlen(hz_series) > 0) { eval 'plot '.hz_series.', '.ticks } else { plot 2 notitle }
