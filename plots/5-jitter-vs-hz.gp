# The jitter loop credits one bit per timer tick: its cost should scale with
# 1/HZ. Median CRNG-ready time against CONFIG_HZ (qemu64: no RDRAND).
load 'plots/style.gp'
dat = datadir.'/hz.dat'
set title "CRNG ready against CONFIG_HZ (cpu=qemu64)\n".caption
set xlabel 'CONFIG_HZ'
set ylabel 'median CRNG ready (ms, guest clock)'
set logscale x
set xtics (100, 250, 1000)
set xrange [70:1400]
set yrange [0:*]
if (nhz < 2) {
	set label 1 "only one HZ in this run: make bench MATRIX=hz" at graph 0.5,0.5 center
}
if (strlen(hz_series) > 0) { eval 'plot '.hz_series } else { plot 2 notitle }
