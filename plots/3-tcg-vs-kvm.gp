# TCG against KVM for the same cells: median CRNG-ready time. KVM cells that
# could not run on this host are marked "not measured", never drawn as zero.
load 'plots/style.gp'
dat = datadir.'/accel.dat'
set title "Median CRNG ready, TCG against KVM\n".caption
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set ylabel 'median CRNG ready (ms, guest clock)'
set xtics rotate by -30 font ',8'
set yrange [0:*]
eval 'plot '.accel_series
