# The jitter trial's margin (MATRIX=entropy): the first trial's samples per
# bit (the kernel's log, patch 0005) against the emulated CPU's speed under
# icount (1000 MHz >> shift), both on log scales; a colour per machine, a
# shape per CONFIG_HZ, filled where the trial passed and open where it gave
# up. The trial passes at or below HZ/15 samples per bit: a dashed line per
# HZ, at the cap its boots logged. Samples per bit follow the CPU's speed
# against the clock's rate, not HZ; HZ moves only the cap.
load 'plots/style.gp'
dat = datadir.'/margin.dat'
set title "The jitter trial's margin on Linux ".kernel_base.": samples per bit against the emulated CPU's speed (icount)\n".caption
set xlabel "emulated CPU, MHz (icount: 1000 >> shift; log scale)"
set ylabel "the first jitter trial's samples per bit (log scale)"
set logscale xy
set xrange [xmin:xmax]
set yrange [ymin:ymax]
set format y '%g'
set xtics ()
do for [i=0:nmhz-1] { set xtics add (sprintf('%g', value(sprintf('mhz_%d', i))) value(sprintf('mhz_%d', i))) }
do for [i=0:ncaps-1] {
	set label i+1 value(sprintf('caplabel_%d', i)) at graph 0.01, first value(sprintf('cap_%d', i)) left offset 0,0.6 font ',8'
}
if (npoints == 0) {
	set label 99 "no jitter trial logged under icount in this run" at graph 0.5,0.5 center
}
set key outside right top
eval 'plot '.margin_series
