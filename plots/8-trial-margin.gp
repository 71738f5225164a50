# The jitter trial's margin (MATRIX=entropy): the first trial's samples per
# bit (the kernel's log, patch 0005) against the emulated CPU's speed under
# icount (1000 MHz >> shift), both on log scales; a colour per machine, a
# shape per CONFIG_HZ, filled where the trial passed and open where it gave
# up. The trial passes at or below HZ/15 samples per bit: a dashed line per
# HZ, at the cap its boots logged. Samples per bit follow the CPU's speed
# against the clock's rate, not HZ; HZ moves only the cap.
load 'plots/style.gp'
dat = datadir.'/margin.dat'
load datadir.'/distinct.gp'
if (fmt eq 'png') set terminal pngcairo size 1000,1100 font 'DejaVu Sans,10' noenhanced
if (fmt eq 'svg') set terminal svg size 1000,1100 font 'DejaVu Sans,10' noenhanced
set output out
set multiplot layout 2,1
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

# What ready holds: per cell, distinct first /dev/urandom outputs over the
# boots that recorded one (1/n: every boot the same bytes), grouped by
# machine; a colour per accelerator, filled for rtc=fixed, open for host.
unset label
unset logscale
set title "What \"ready\" holds: distinct first /dev/urandom outputs per cell, as a share of its boots (1/n: all identical)"
set xlabel "cells grouped by machine, in the table's order (conditions, then CPU speed and HZ)"
set ylabel "distinct outputs / boots"
set xrange [0:xdmax]
set yrange [0:1.1]
set ytics (0, '1/10' 0.1, 0.5, 1)
set xtics () rotate by -20 font ',8'
do for [i=0:ndmachines-1] { set xtics add (value(sprintf('dmachine_%d', i)) value(sprintf('dcenter_%d', i))) }
set key outside right top
ddat = datadir.'/distinct.dat'
if (ndcells == 0) { set label 98 "no digests recorded in this run" at graph 0.5,0.5 center }
plot ddat using ($3==0 && $4==1 ? $1 : NaN):2 with points pt 7 ps 1.3 lc rgb '#1b9e77' title 'icount, rtc=fixed', \
     ddat using ($3==0 && $4==0 ? $1 : NaN):2 with points pt 6 ps 1.3 lc rgb '#1b9e77' title 'icount, rtc=host', \
     ddat using ($3==1 && $4==1 ? $1 : NaN):2 with points pt 5 ps 1.3 lc rgb '#d95f02' title 'tcg, rtc=fixed', \
     ddat using ($3==1 && $4==0 ? $1 : NaN):2 with points pt 4 ps 1.3 lc rgb '#d95f02' title 'tcg, rtc=host'
unset multiplot
